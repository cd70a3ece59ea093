ALTER TABLE "interview_sessions" ADD COLUMN "connected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "end_reason" text;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "end_detail" text;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "input" text;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "usage" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "estimated_cost_usd" double precision;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "errors" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "error_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "interview_sessions_created_idx" ON "interview_sessions" USING btree ("created_at");