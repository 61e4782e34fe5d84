CREATE TABLE "sign_up_origins" (
	"user_id" text PRIMARY KEY NOT NULL,
	"ip" text NOT NULL,
	"device_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_sightings" (
	"user_id" text NOT NULL,
	"device_id" text NOT NULL,
	"ip" text NOT NULL,
	"first_seen_at" timestamp (3) with time zone NOT NULL,
	"last_seen_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "user_sightings_user_id_device_id_ip_pk" PRIMARY KEY("user_id","device_id","ip")
);
--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_status_check";--> statement-breakpoint
DROP INDEX "ledger_transfers_from_idx";--> statement-breakpoint
DROP INDEX "ledger_transfers_to_idx";--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD COLUMN "from_balance_after" bigint;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD COLUMN "to_balance_after" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_reference" text;--> statement-breakpoint
ALTER TABLE "sign_up_origins" ADD CONSTRAINT "sign_up_origins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sightings" ADD CONSTRAINT "user_sightings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_up_origins_ip_idx" ON "sign_up_origins" USING btree ("ip");--> statement-breakpoint
CREATE INDEX "user_sightings_device_idx" ON "user_sightings" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "withdrawals_created_idx" ON "withdrawals" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_from_idx" ON "ledger_transfers" USING btree ("from_account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_to_idx" ON "ledger_transfers" USING btree ("to_account_id","id");--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_status_check" CHECK ("withdrawals"."status" in ('pending', 'approved', 'rejected', 'cancelled'));--> statement-breakpoint
-- Writes every transfer's balances after it from the transfers themselves: each account's
-- running sum in transfer order (an account's transfers are numbered while its row is locked,
-- so their ids are the order its balance moved in). For this migration and for bulk loads
-- that bypass ledger_transfer (the benchmark seed).
CREATE FUNCTION ledger_rewrite_balances_after() RETURNS void LANGUAGE sql AS $$
  WITH movements AS (
    SELECT id, to_account_id AS account_id, amount AS delta, true AS incoming FROM ledger_transfers
    UNION ALL
    SELECT id, from_account_id, -amount, false FROM ledger_transfers
  ), running AS (
    SELECT id, incoming, sum(delta) OVER (PARTITION BY account_id ORDER BY id) AS balance_after FROM movements
  ), sides AS (
    SELECT id,
           max(balance_after) FILTER (WHERE NOT incoming) AS from_after,
           max(balance_after) FILTER (WHERE incoming) AS to_after
    FROM running GROUP BY id
  )
  UPDATE ledger_transfers t SET from_balance_after = sides.from_after, to_balance_after = sides.to_after
  FROM sides
  WHERE sides.id = t.id
    AND (t.from_balance_after IS DISTINCT FROM sides.from_after OR t.to_balance_after IS DISTINCT FROM sides.to_after);
$$;
--> statement-breakpoint
SELECT ledger_rewrite_balances_after();
--> statement-breakpoint
ALTER TABLE "ledger_transfers" ALTER COLUMN "from_balance_after" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "ledger_transfers" ALTER COLUMN "to_balance_after" SET NOT NULL;
--> statement-breakpoint
-- As in migration 0010, and now writing each side's balance after the transfer.
CREATE OR REPLACE FUNCTION ledger_transfer(source_key text, target_key text, amount bigint, transfer_key text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  source ledger_accounts%ROWTYPE;
  target ledger_accounts%ROWTYPE;
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
  SELECT * INTO target FROM ledger_accounts WHERE owner_key = target_key;
  IF source.id IS NULL OR target.id IS NULL THEN
    RAISE EXCEPTION 'ledger account missing: %', CASE WHEN source.id IS NULL THEN source_key ELSE target_key END;
  END IF;
  -- A repeat of a transfer already made is a no-op, whatever the balance now.
  IF EXISTS (SELECT 1 FROM ledger_transfers WHERE idempotency_key = transfer_key) THEN
    RETURN false;
  END IF;
  IF source.kind <> 'mint' AND source.balance < amount THEN
    RAISE EXCEPTION 'insufficient coins in %', source_key USING ERRCODE = 'TM001';
  END IF;
  INSERT INTO ledger_transfers (idempotency_key, from_account_id, to_account_id, amount, from_balance_after, to_balance_after)
  VALUES (transfer_key, source.id, target.id, amount, source.balance - amount, target.balance + amount)
  ON CONFLICT (idempotency_key) DO NOTHING;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  UPDATE ledger_accounts SET balance = balance + CASE WHEN id = target.id THEN amount ELSE -amount END
  WHERE id IN (source.id, target.id);
  RETURN true;
END
$$;
--> statement-breakpoint
-- Whether an address says who is behind it: loopback, private, link-local and carrier-grade NAT
-- ranges are shared by strangers (an office, a proxy, a mobile carrier), so the fraud signals
-- on withdrawals ignore them (decision 017).
CREATE FUNCTION public_address(ip text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT NOT (ip::inet <<= ANY (ARRAY['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16',
    '172.16.0.0/12', '192.168.0.0/16', '::1/128', 'fc00::/7', 'fe80::/10', '::ffff:0:0/96']::inet[]))
$$;
