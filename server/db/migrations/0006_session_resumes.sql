ALTER TABLE "interview_sessions" ADD COLUMN "resumes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "token_issued_at" timestamp with time zone;