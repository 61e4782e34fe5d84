CREATE TABLE "notification_preferences" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	CONSTRAINT "notification_preferences_user_id_kind_pk" PRIMARY KEY("user_id","kind"),
	CONSTRAINT "notification_preferences_channel_check" CHECK ("notification_preferences"."channel" in ('mail', 'bell'))
);
--> statement-breakpoint
CREATE TABLE "outgoing_mails" (
	"notification_id" text PRIMARY KEY NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"sent_at" timestamp (3) with time zone,
	"dropped_at" timestamp (3) with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "kind" text DEFAULT 'other' NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outgoing_mails" ADD CONSTRAINT "outgoing_mails_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outgoing_mails_due_idx" ON "outgoing_mails" USING btree ("next_attempt_at" NULLS FIRST) WHERE "outgoing_mails"."sent_at" is null and "outgoing_mails"."dropped_at" is null;--> statement-breakpoint
-- Rule R29: a notification of a kind the recipient gets by mail is queued for the mail job in
-- the same transaction, so the mail exists exactly when the event does. Only confirmed
-- addresses of live accounts get mail. The defaults (a kind without a preference row) are
-- MAIL_KINDS' in packages/shared/src/notifications.ts: work_submitted stays on the bell, the
-- rest is mailed (mail.test.ts keeps the two equal).
DROP FUNCTION notify_user(text, text, text);
--> statement-breakpoint
CREATE FUNCTION notify_user(recipient text, message text, action_route text, notification_kind text) RETURNS text LANGUAGE plpgsql AS $$
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
  END IF;
  PERFORM pg_notify('notifications', created_id);
  RETURN created_id;
END
$$;
