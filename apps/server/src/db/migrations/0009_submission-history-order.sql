DROP INDEX "submissions_worker_idx";--> statement-breakpoint
DROP INDEX "submissions_buyer_idx";--> statement-breakpoint
CREATE INDEX "submissions_worker_idx" ON "submissions" USING btree ("worker_id","created_at","id");--> statement-breakpoint
CREATE INDEX "submissions_buyer_idx" ON "submissions" USING btree ("buyer_id","status","created_at","id");