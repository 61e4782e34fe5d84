-- A transfer and a notification as functions, so a domain action can do its whole work,
-- coins included, in one statement (decision 008). The ledger module owns ledger_transfer
-- and the notifications module notify_user; nothing else writes their tables.

-- Moves `amount` coins between two accounts once per transfer_key: true when it moved them,
-- false for a repeat of a transfer already made. Raises TM001 when a non-mint account
-- would go below zero, writing nothing.
CREATE FUNCTION ledger_transfer(source_key text, target_key text, amount bigint, transfer_key text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  source ledger_accounts%ROWTYPE;
  target_id bigint;
BEGIN
  IF amount IS NULL OR amount <= 0 THEN
    RAISE EXCEPTION 'transfer amount must be a positive integer, got %', amount;
  END IF;
  IF source_key = target_key THEN
    RAISE EXCEPTION 'transfer needs two different accounts';
  END IF;
  -- Both rows locked in id order, so concurrent transfers queue instead of deadlocking.
  PERFORM 1 FROM ledger_accounts WHERE owner_key IN (source_key, target_key) ORDER BY id FOR UPDATE;
  SELECT * INTO source FROM ledger_accounts WHERE owner_key = source_key;
  SELECT id INTO target_id FROM ledger_accounts WHERE owner_key = target_key;
  IF source.id IS NULL OR target_id IS NULL THEN
    RAISE EXCEPTION 'ledger account missing: %', CASE WHEN source.id IS NULL THEN source_key ELSE target_key END;
  END IF;
  -- A repeat of a transfer already made is a no-op, whatever the balance now.
  IF EXISTS (SELECT 1 FROM ledger_transfers WHERE idempotency_key = transfer_key) THEN
    RETURN false;
  END IF;
  IF source.kind <> 'mint' AND source.balance < amount THEN
    RAISE EXCEPTION 'insufficient coins in %', source_key USING ERRCODE = 'TM001';
  END IF;
  INSERT INTO ledger_transfers (idempotency_key, from_account_id, to_account_id, amount)
  VALUES (transfer_key, source.id, target_id, amount)
  ON CONFLICT (idempotency_key) DO NOTHING;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  UPDATE ledger_accounts SET balance = balance + CASE WHEN id = target_id THEN amount ELSE -amount END
  WHERE id IN (source.id, target_id);
  RETURN true;
END
$$;
--> statement-breakpoint
-- Stores a notification and announces its id on the "notifications" channel, which every
-- server process LISTENs to (NOTIFICATION_CHANNEL in the notifications module).
CREATE FUNCTION notify_user(recipient text, message text, action_route text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  created_id text := gen_random_uuid()::text;
BEGIN
  INSERT INTO notifications (id, user_id, message, action_route) VALUES (created_id, recipient, message, action_route);
  PERFORM pg_notify('notifications', created_id);
  RETURN created_id;
END
$$;
