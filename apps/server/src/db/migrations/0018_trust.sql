CREATE TABLE "appeals" (
	"submission_id" text PRIMARY KEY NOT NULL,
	"buyer_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"message" text NOT NULL,
	"answer" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"answered_at" timestamp (3) with time zone,
	"escalated_at" timestamp (3) with time zone,
	"decided_at" timestamp (3) with time zone,
	"decided_by" text,
	"paid_from" text,
	CONSTRAINT "appeals_status_check" CHECK (status in ('open', 'upheld_by_buyer', 'escalated', 'overturned', 'upheld'))
);
--> statement-breakpoint
CREATE TABLE "bonuses" (
	"id" text PRIMARY KEY NOT NULL,
	"buyer_id" text NOT NULL,
	"worker_id" text NOT NULL,
	"submission_id" text NOT NULL,
	"coins" integer NOT NULL,
	"message" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "bonuses_coins_check" CHECK ("bonuses"."coins" between 1 and 1000)
);
--> statement-breakpoint
CREATE TABLE "buyer_blocks" (
	"buyer_id" text NOT NULL,
	"worker_id" text NOT NULL,
	"note" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "buyer_blocks_buyer_id_worker_id_pk" PRIMARY KEY("buyer_id","worker_id")
);
--> statement-breakpoint
CREATE TABLE "buyer_reputations" (
	"buyer_id" text PRIMARY KEY NOT NULL,
	"approved" integer NOT NULL,
	"rejected" integer NOT NULL,
	"median_review_seconds" double precision,
	"refreshed_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hidden_buyers" (
	"worker_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "hidden_buyers_worker_id_buyer_id_pk" PRIMARY KEY("worker_id","buyer_id")
);
--> statement-breakpoint
CREATE TABLE "worker_reputations" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"approved" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "worker_reputations_counts_check" CHECK ("worker_reputations"."approved" >= 0 and "worker_reputations"."rejected" >= 0)
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "min_approval_rate" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "min_level" text DEFAULT 'new' NOT NULL;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonuses" ADD CONSTRAINT "bonuses_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonuses" ADD CONSTRAINT "bonuses_worker_id_users_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonuses" ADD CONSTRAINT "bonuses_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_blocks" ADD CONSTRAINT "buyer_blocks_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_blocks" ADD CONSTRAINT "buyer_blocks_worker_id_users_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_reputations" ADD CONSTRAINT "buyer_reputations_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hidden_buyers" ADD CONSTRAINT "hidden_buyers_worker_id_users_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hidden_buyers" ADD CONSTRAINT "hidden_buyers_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_reputations" ADD CONSTRAINT "worker_reputations_worker_id_users_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appeals_buyer_status_idx" ON "appeals" USING btree ("buyer_id","status");--> statement-breakpoint
CREATE INDEX "appeals_escalated_idx" ON "appeals" USING btree ("escalated_at","submission_id") WHERE "appeals"."status" = 'escalated';--> statement-breakpoint
CREATE UNIQUE INDEX "bonuses_buyer_key_idx" ON "bonuses" USING btree ("buyer_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "bonuses_submission_idx" ON "bonuses" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "buyer_blocks_buyer_created_idx" ON "buyer_blocks" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "hidden_buyers_worker_created_idx" ON "hidden_buyers" USING btree ("worker_id","created_at");--> statement-breakpoint
CREATE INDEX "submissions_decided_idx" ON "submissions" USING btree ("decided_at") WHERE "submissions"."decided_at" is not null;--> statement-breakpoint
CREATE INDEX "submissions_buyer_decided_idx" ON "submissions" USING btree ("buyer_id","decided_at") WHERE "submissions"."decided_at" is not null;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_min_approval_rate_check" CHECK ("tasks"."min_approval_rate" between 0 and 100);--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_min_level_check" CHECK (min_level in ('new', 'bronze', 'silver', 'gold'));--> statement-breakpoint
-- Rule R21: each worker's decided submissions, kept here whatever decides them (a buyer, the
-- auto-approval, an overturned appeal turning a rejection into an approval, a bulk insert).
CREATE FUNCTION count_decided_submission() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  approved_change integer := CASE WHEN NEW.status = 'approved' THEN 1 ELSE 0 END;
  rejected_change integer := CASE WHEN NEW.status = 'rejected' THEN 1 ELSE 0 END;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    approved_change := approved_change - CASE WHEN OLD.status = 'approved' THEN 1 ELSE 0 END;
    rejected_change := rejected_change - CASE WHEN OLD.status = 'rejected' THEN 1 ELSE 0 END;
  END IF;
  IF approved_change <> 0 OR rejected_change <> 0 THEN
    -- Update first: an upsert would check its proposed row (a -1) against the table's CHECK.
    UPDATE worker_reputations
    SET approved = approved + approved_change, rejected = rejected + rejected_change
    WHERE worker_id = NEW.worker_id;
    IF NOT FOUND THEN
      -- A first decision (only increments); a racing first decision may insert the row meanwhile.
      INSERT INTO worker_reputations (worker_id, approved, rejected)
      VALUES (NEW.worker_id, approved_change, rejected_change)
      ON CONFLICT (worker_id) DO UPDATE
      SET approved = worker_reputations.approved + EXCLUDED.approved,
          rejected = worker_reputations.rejected + EXCLUDED.rejected;
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER submissions_count_decided AFTER INSERT OR UPDATE OF status ON submissions
FOR EACH ROW EXECUTE FUNCTION count_decided_submission();
--> statement-breakpoint
INSERT INTO worker_reputations (worker_id, approved, rejected)
SELECT worker_id, count(*) FILTER (WHERE status = 'approved'), count(*) FILTER (WHERE status = 'rejected')
FROM submissions WHERE status <> 'pending' GROUP BY worker_id;
