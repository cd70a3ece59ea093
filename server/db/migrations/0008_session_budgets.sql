ALTER TABLE "interview_sessions" ADD COLUMN "call_token_hash" text;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "speech_answers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "speech_seconds" double precision DEFAULT 0 NOT NULL;