CREATE TABLE "saved_search_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"saved_search_id" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"match_count" integer NOT NULL,
	"task_id" text NOT NULL,
	"task_title" text NOT NULL,
	"notification_id" text
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" text PRIMARY KEY NOT NULL,
	"worker_id" text NOT NULL,
	"name" text NOT NULL,
	"q" text,
	"query" "tsquery",
	"lexemes" text[],
	"category" text,
	"min_reward" integer,
	"alert_bell" boolean NOT NULL,
	"alert_mail" boolean NOT NULL,
	"alert_push" boolean NOT NULL,
	"last_seen_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "saved_search_alerts" ADD CONSTRAINT "saved_search_alerts_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_alerts" ADD CONSTRAINT "saved_search_alerts_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_worker_id_users_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_search_alerts_search_idx" ON "saved_search_alerts" USING btree ("saved_search_id","started_at");--> statement-breakpoint
CREATE INDEX "saved_searches_worker_idx" ON "saved_searches" USING btree ("worker_id","created_at");--> statement-breakpoint
CREATE INDEX "saved_searches_lexemes_idx" ON "saved_searches" USING gin ("lexemes") WHERE "saved_searches"."lexemes" is not null;--> statement-breakpoint
CREATE INDEX "saved_searches_wordless_idx" ON "saved_searches" USING btree ("category","min_reward") WHERE "saved_searches"."lexemes" is null;--> statement-breakpoint
-- Decision 037: a saved search's mail is its own digest, chosen per search (alert_mail) and sent
-- once per fold window by the saved_search_digest job; notify_user records saved_search_match
-- notifications for the bell only, as it does 'other'. Otherwise as in 0030.
CREATE OR REPLACE FUNCTION notify_user(recipient text, message text, action_route text, notification_kind text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  created_id text := gen_random_uuid()::text;
BEGIN
  INSERT INTO notifications (id, user_id, message, action_route, kind)
    VALUES (created_id, recipient, message, action_route, notification_kind);
  IF notification_kind NOT IN ('other', 'saved_search_match') AND EXISTS (
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
