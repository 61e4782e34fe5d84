CREATE TABLE "platform_counters" (
	"name" text NOT NULL,
	"shard" integer NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "platform_counters_name_shard_pk" PRIMARY KEY("name","shard")
);
--> statement-breakpoint
CREATE INDEX "users_name_idx" ON "users" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "tasks_created_idx" ON "tasks" USING btree ("created_at","id");