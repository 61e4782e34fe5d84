CREATE TABLE "submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"task_id" text NOT NULL,
	"worker_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"submission_details" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"auto_approve_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "submissions_status_check" CHECK ("submissions"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"buyer_id" text NOT NULL,
	"task_title" text NOT NULL,
	"task_detail" text NOT NULL,
	"submission_info" text NOT NULL,
	"required_workers" integer NOT NULL,
	"payable_amount" integer NOT NULL,
	"completion_date" date NOT NULL,
	"task_image_url" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tasks_required_workers_check" CHECK ("tasks"."required_workers" >= 0),
	CONSTRAINT "tasks_payable_amount_check" CHECK ("tasks"."payable_amount" >= 1),
	CONSTRAINT "tasks_status_check" CHECK ("tasks"."status" in ('open', 'closed'))
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_worker_id_users_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_task_worker_idx" ON "submissions" USING btree ("task_id","worker_id");--> statement-breakpoint
CREATE INDEX "submissions_worker_idx" ON "submissions" USING btree ("worker_id","created_at");--> statement-breakpoint
CREATE INDEX "submissions_buyer_idx" ON "submissions" USING btree ("buyer_id","status","created_at");--> statement-breakpoint
CREATE INDEX "submissions_task_status_idx" ON "submissions" USING btree ("task_id","status");--> statement-breakpoint
CREATE INDEX "submissions_due_idx" ON "submissions" USING btree ("auto_approve_at") WHERE "submissions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "tasks_open_price_idx" ON "tasks" USING btree ("payable_amount","id") WHERE "tasks"."status" = 'open' and "tasks"."required_workers" > 0;--> statement-breakpoint
CREATE INDEX "tasks_open_newest_idx" ON "tasks" USING btree ("created_at","id") WHERE "tasks"."status" = 'open' and "tasks"."required_workers" > 0;--> statement-breakpoint
CREATE INDEX "tasks_buyer_idx" ON "tasks" USING btree ("buyer_id","completion_date");--> statement-breakpoint
CREATE INDEX "tasks_open_expiry_idx" ON "tasks" USING btree ("completion_date") WHERE "tasks"."status" = 'open';