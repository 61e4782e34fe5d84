CREATE TABLE "reservations" (
	"id" text PRIMARY KEY NOT NULL,
	"task_id" text NOT NULL,
	"worker_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	CONSTRAINT "reservations_status_check" CHECK ("reservations"."status" in ('active', 'submitted', 'cancelled', 'expired', 'ended'))
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_worker_id_users_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reservations_active_task_worker_idx" ON "reservations" USING btree ("task_id","worker_id") WHERE "reservations"."status" = 'active';--> statement-breakpoint
CREATE INDEX "reservations_active_worker_idx" ON "reservations" USING btree ("worker_id","expires_at") WHERE "reservations"."status" = 'active';--> statement-breakpoint
CREATE INDEX "reservations_active_expiry_idx" ON "reservations" USING btree ("expires_at") WHERE "reservations"."status" = 'active';