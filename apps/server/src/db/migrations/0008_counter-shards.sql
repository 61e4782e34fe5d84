-- 64 shards: a pool's backends have consecutive process ids, so each gets a counter row of its
-- own and parallel money transactions do not wait on one another's counter update.
CREATE OR REPLACE FUNCTION bump_platform_counter(counter text, delta bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO platform_counters (name, shard, value) VALUES (counter, pg_backend_pid() % 64, delta)
  ON CONFLICT (name, shard) DO UPDATE SET value = platform_counters.value + excluded.value
$$;
