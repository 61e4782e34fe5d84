ALTER TABLE "tasks" ADD COLUMN "category" text DEFAULT 'other' NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "estimated_minutes" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "time_limit_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "proof_images" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_category_check" CHECK (category in ('data_entry', 'surveys', 'social_media', 'app_testing', 'writing_reviews', 'research', 'transcription', 'other'));--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_estimated_minutes_check" CHECK ("tasks"."estimated_minutes" between 1 and 600);--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_time_limit_minutes_check" CHECK ("tasks"."time_limit_minutes" between 5 and 1440);--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_proof_images_check" CHECK ("tasks"."proof_images" between 0 and 3);