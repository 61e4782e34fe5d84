-- Decision 034: notification mails (rule R29) go through the job queue like every other mail.
-- notify_user still records each mail in outgoing_mails (its attempts, sent or dropped), and now
-- queues a 'notification_mail' job for it in the same transaction, due at once (the epoch is
-- before any clock's now), waking the servers' workers on commit. The defaults are MAIL_KINDS'
-- (packages/shared/src/notifications.ts), as in 0021.
CREATE OR REPLACE FUNCTION notify_user(recipient text, message text, action_route text, notification_kind text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  created_id text := gen_random_uuid()::text;
BEGIN
  INSERT INTO notifications (id, user_id, message, action_route, kind)
    VALUES (created_id, recipient, message, action_route, notification_kind);
  IF notification_kind <> 'other' AND EXISTS (
    SELECT 1 FROM users u
    LEFT JOIN notification_preferences p ON p.user_id = u.id AND p.kind = notification_kind
    WHERE u.id = recipient AND u.email_verified AND u.deleted_at IS NULL
      AND coalesce(p.channel, CASE notification_kind WHEN 'work_submitted' THEN 'bell' ELSE 'mail' END) = 'mail'
  ) THEN
    INSERT INTO outgoing_mails (notification_id) VALUES (created_id);
    INSERT INTO jobs (id, kind, payload, run_at, created_at)
      VALUES (gen_random_uuid()::text, 'notification_mail', jsonb_build_object('notificationId', created_id), to_timestamp(0), now());
    PERFORM pg_notify('jobs_queued', 'queued');
  END IF;
  PERFORM pg_notify('notifications', created_id);
  RETURN created_id;
END
$$;
--> statement-breakpoint
-- The mails queued before this migration, still to send, become jobs at their next attempt.
INSERT INTO jobs (id, kind, payload, run_at, created_at)
  SELECT gen_random_uuid()::text, 'notification_mail', jsonb_build_object('notificationId', notification_id),
    coalesce(next_attempt_at, to_timestamp(0)), now()
  FROM outgoing_mails WHERE sent_at IS NULL AND dropped_at IS NULL;
