-- Decision 036: a batch funds up to 5,000 new escrows from one wallet in one transaction.
-- ledger_transfer once per escrow updates the wallet's row 5,000 times, and each update walks
-- the row versions the transaction already made: quadratic. This makes the same transfers as
-- a set: every account locked in id order (as ledger_transfer locks them), the wallet checked
-- once for the total, one transfer row per target in the given order with each side's balance
-- after it, and each balance updated once. For transfers new by construction (their causes
-- name new rows): a repeated cause is an error here, not a no-op.
CREATE FUNCTION ledger_transfer_many(source_key text, targets jsonb) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  source ledger_accounts%ROWTYPE;
  total bigint;
  wanted integer;
  found integer;
BEGIN
  SELECT count(*), sum(amount), count(DISTINCT key) INTO wanted, total, found
  FROM jsonb_to_recordset(targets) AS t(key text, amount bigint);
  IF wanted = 0 THEN
    RETURN 0;
  END IF;
  IF found <> wanted THEN
    RAISE EXCEPTION 'ledger_transfer_many needs each target once';
  END IF;
  IF EXISTS (SELECT 1 FROM jsonb_to_recordset(targets) AS t(key text, amount bigint)
             WHERE amount IS NULL OR amount <= 0 OR key = source_key) THEN
    RAISE EXCEPTION 'transfer amounts must be positive integers between two different accounts';
  END IF;
  PERFORM 1 FROM ledger_accounts
  WHERE owner_key = source_key OR owner_key IN (SELECT t.key FROM jsonb_to_recordset(targets) AS t(key text))
  ORDER BY id FOR UPDATE;
  SELECT * INTO source FROM ledger_accounts WHERE owner_key = source_key;
  SELECT count(*) INTO found FROM ledger_accounts
  WHERE owner_key IN (SELECT t.key FROM jsonb_to_recordset(targets) AS t(key text));
  IF source.id IS NULL OR found <> wanted THEN
    RAISE EXCEPTION 'ledger account missing for % or one of its targets', source_key;
  END IF;
  IF source.kind <> 'mint' AND source.balance < total THEN
    RAISE EXCEPTION 'insufficient coins in %', source_key USING ERRCODE = 'TM001';
  END IF;
  INSERT INTO ledger_transfers (idempotency_key, from_account_id, to_account_id, amount, from_balance_after, to_balance_after)
  SELECT t.item->>'transfer_key', source.id, a.id, (t.item->>'amount')::bigint,
         source.balance - sum((t.item->>'amount')::bigint) OVER (ORDER BY t.ord),
         a.balance + (t.item->>'amount')::bigint
  FROM jsonb_array_elements(targets) WITH ORDINALITY AS t(item, ord)
  JOIN ledger_accounts a ON a.owner_key = t.item->>'key'
  ORDER BY t.ord;
  UPDATE ledger_accounts SET balance = balance - total WHERE id = source.id;
  UPDATE ledger_accounts a SET balance = a.balance + t.amount
  FROM jsonb_to_recordset(targets) AS t(key text, amount bigint)
  WHERE a.owner_key = t.key;
  RETURN wanted;
END
$$;
