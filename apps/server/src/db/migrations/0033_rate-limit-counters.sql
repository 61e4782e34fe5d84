-- Unlogged: counts need no crash safety (a crash only starts their windows afresh), and every
-- limited request writes one (issue 38).
CREATE UNLOGGED TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"resets_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_counters_resets_idx" ON "rate_limit_counters" USING btree ("resets_at");