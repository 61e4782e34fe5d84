CREATE TABLE "idempotency_keys" (
	"owner_id" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" integer,
	"answer" jsonb,
	"created_at" timestamp (3) with time zone NOT NULL,
	"claimed_until" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_owner_id_key_pk" PRIMARY KEY("owner_id","key")
);
--> statement-breakpoint
CREATE TABLE "task_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"buyer_id" text NOT NULL,
	"tasks_created" integer NOT NULL,
	"total_cost" integer NOT NULL,
	"file_name" text,
	"api_key_id" text,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "batch_id" text;--> statement-breakpoint
ALTER TABLE "task_batches" ADD CONSTRAINT "task_batches_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "task_batches_buyer_idx" ON "task_batches" USING btree ("buyer_id","created_at");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_batch_id_task_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."task_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_batch_idx" ON "tasks" USING btree ("batch_id") WHERE "tasks"."batch_id" is not null;