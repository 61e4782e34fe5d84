-- Issue 35, point 4 (decision 035): webhook events queued in the transaction (or the one
-- statement) of the change they tell of. Each active endpoint of the buyer subscribed to the
-- event gets a pending delivery, and the job queue (decision 034) a 'webhook' job for it;
-- the NOTIFY wakes the servers' workers on commit.
CREATE FUNCTION queue_webhook_event(p_buyer text, p_type text, p_data jsonb, p_at timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  message_id text := 'msg_' || replace(gen_random_uuid()::text, '-', '');
  queued integer;
BEGIN
  WITH deliveries AS (
    INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, payload, status, next_attempt_at, retry_until, created_at)
    SELECT gen_random_uuid()::text, e.id, message_id, p_type,
      jsonb_build_object(
        'type', p_type,
        'timestamp', to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'data', p_data),
      'pending', p_at, p_at + interval '24 hours', p_at
    FROM webhook_endpoints e
    WHERE e.buyer_id = p_buyer AND e.status = 'active' AND p_type = ANY (e.events)
    RETURNING id
  ), queued_jobs AS (
    INSERT INTO jobs (id, kind, payload, run_at, created_at)
    SELECT gen_random_uuid()::text, 'webhook', jsonb_build_object('deliveryId', d.id), p_at, p_at FROM deliveries d
    RETURNING 1
  )
  SELECT count(*) INTO queued FROM queued_jobs;
  IF queued > 0 THEN
    PERFORM pg_notify('jobs_queued', 'queued');
  END IF;
  RETURN queued;
END
$$;
--> statement-breakpoint
-- A decided submission's event, and task.completed when it decided the task's last slot: no
-- open slot, no live reservation, no other pending submission. Deciders of one task take its
-- advisory lock in turn, each checking after the one before committed, so the last of them sees
-- the task complete. Called last in each decision (after its coin transfer): the lock is the last taken.
CREATE FUNCTION queue_submission_webhooks(p_buyer text, p_submission text, p_task text, p_worker text, p_type text, p_at timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  queued integer;
BEGIN
  queued := queue_webhook_event(p_buyer, p_type,
    jsonb_build_object('submission_id', p_submission, 'task_id', p_task, 'worker_id', p_worker), p_at);
  IF p_type IN ('submission.approved', 'submission.rejected') THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('task-decided:' || p_task, 0));
    IF EXISTS (SELECT 1 FROM tasks t WHERE t.id = p_task AND t.required_workers = 0)
      AND NOT EXISTS (SELECT 1 FROM reservations r WHERE r.task_id = p_task AND r.status = 'active')
      AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.task_id = p_task AND s.status = 'pending' AND s.id <> p_submission)
    THEN
      queued := queued + queue_webhook_event(p_buyer, 'task.completed', jsonb_build_object('task_id', p_task), p_at);
    END IF;
  END IF;
  RETURN queued;
END
$$;
