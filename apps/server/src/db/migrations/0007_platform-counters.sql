-- Triggers keep platform_counters right for every writer (services, seeds, manual SQL).
-- Statement-level with transition tables: a bulk statement bumps each counter once.
-- A backend adds to its own shard (pid mod 8), so parallel transactions rarely share a row.
CREATE FUNCTION bump_platform_counter(counter text, delta bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO platform_counters (name, shard, value) VALUES (counter, pg_backend_pid() % 8, delta)
  ON CONFLICT (name, shard) DO UPDATE SET value = platform_counters.value + excluded.value
$$;
--> statement-breakpoint
CREATE FUNCTION count_live_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR change IN SELECT role, count(*) AS delta FROM new_rows WHERE deleted_at IS NULL GROUP BY role LOOP
      PERFORM bump_platform_counter('users:' || change.role, change.delta);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR change IN SELECT role, -count(*) AS delta FROM old_rows WHERE deleted_at IS NULL GROUP BY role LOOP
      PERFORM bump_platform_counter('users:' || change.role, change.delta);
    END LOOP;
  ELSE
    FOR change IN
      SELECT role, sum(n) AS delta FROM (
        SELECT role, 1 AS n FROM new_rows WHERE deleted_at IS NULL
        UNION ALL
        SELECT role, -1 AS n FROM old_rows WHERE deleted_at IS NULL
      ) counted GROUP BY role HAVING sum(n) <> 0
    LOOP
      PERFORM bump_platform_counter('users:' || change.role, change.delta);
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION count_wallet_coins() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added bigint := 0;
  removed bigint := 0;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT coalesce(sum(balance), 0) INTO added FROM new_rows WHERE kind = 'wallet';
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT coalesce(sum(balance), 0) INTO removed FROM old_rows WHERE kind = 'wallet';
  END IF;
  IF added <> removed THEN
    PERFORM bump_platform_counter('wallet_coins', added - removed);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION count_completed_payments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added bigint := 0;
  removed bigint := 0;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT coalesce(sum(amount_cents), 0) INTO added FROM new_rows WHERE status = 'completed';
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT coalesce(sum(amount_cents), 0) INTO removed FROM old_rows WHERE status = 'completed';
  END IF;
  IF added <> removed THEN
    PERFORM bump_platform_counter('payment_cents', added - removed);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_counted_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_live_users();
--> statement-breakpoint
CREATE TRIGGER users_counted_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_live_users();
--> statement-breakpoint
CREATE TRIGGER users_counted_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_live_users();
--> statement-breakpoint
CREATE TRIGGER wallets_counted_insert AFTER INSERT ON ledger_accounts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_wallet_coins();
--> statement-breakpoint
CREATE TRIGGER wallets_counted_update AFTER UPDATE ON ledger_accounts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_wallet_coins();
--> statement-breakpoint
CREATE TRIGGER wallets_counted_delete AFTER DELETE ON ledger_accounts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_wallet_coins();
--> statement-breakpoint
CREATE TRIGGER payments_counted_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_completed_payments();
--> statement-breakpoint
CREATE TRIGGER payments_counted_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_completed_payments();
--> statement-breakpoint
CREATE TRIGGER payments_counted_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_completed_payments();
--> statement-breakpoint
INSERT INTO platform_counters (name, shard, value)
SELECT 'users:' || role, 0, count(*) FROM users WHERE deleted_at IS NULL GROUP BY role
UNION ALL SELECT 'wallet_coins', 0, coalesce(sum(balance), 0) FROM ledger_accounts WHERE kind = 'wallet'
UNION ALL SELECT 'payment_cents', 0, coalesce(sum(amount_cents), 0) FROM payments WHERE status = 'completed';
