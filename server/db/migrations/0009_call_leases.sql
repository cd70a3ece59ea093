ALTER TABLE "interview_sessions" ADD COLUMN "call_id" text;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "call_owner" text;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "call_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "interview_sessions_call_lease_idx" ON "interview_sessions" USING btree ("call_lease_until") WHERE "interview_sessions"."call_id" is not null;