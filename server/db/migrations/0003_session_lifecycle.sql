DROP INDEX "events_pending_rating_idx";--> statement-breakpoint
DROP INDEX "interview_sessions_account_idx";--> statement-breakpoint
ALTER TABLE "interview_sessions" ALTER COLUMN "status" SET DEFAULT 'minted';--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "rating_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "next_rating_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "turn_calls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
-- Old statuses to the lifecycle: a session with a stored rating is rated; an interviewer-closed
-- one (finished, no rating) and one with turns are live; the rest were only minted.
UPDATE "interview_sessions" AS s SET "status" = CASE
	WHEN EXISTS (SELECT 1 FROM "events" e WHERE e."event_type" = 'RATE' AND e."session_id" = s."id") THEN 'rated'
	WHEN s."status" = 'finished' OR jsonb_array_length(s."turns") > 0 THEN 'live'
	ELSE 'minted' END;--> statement-breakpoint
-- Before one rating per session was enforced a session could be rated twice: keep the first link.
UPDATE "events" AS e SET "session_id" = NULL WHERE e."event_type" = 'RATE' AND e."session_id" IS NOT NULL
	AND EXISTS (SELECT 1 FROM "events" f WHERE f."event_type" = 'RATE' AND f."session_id" = e."session_id" AND f."id" < e."id");--> statement-breakpoint
-- Failed ratings of the past are retried like new ones.
UPDATE "events" SET "next_rating_at" = now() WHERE "rating_status" = 'failed';--> statement-breakpoint
CREATE INDEX "events_unrated_idx" ON "events" USING btree ("rating_status") WHERE "events"."rating_status" in ('pending', 'failed');--> statement-breakpoint
CREATE UNIQUE INDEX "events_session_rating_key" ON "events" USING btree ("session_id") WHERE "events"."event_type" = 'RATE' and "events"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "interview_sessions_account_set_idx" ON "interview_sessions" USING btree ("account_id","question_set_id","created_at");--> statement-breakpoint
CREATE INDEX "interview_sessions_refunds_idx" ON "interview_sessions" USING btree ("account_id","refunded_at") WHERE "interview_sessions"."refunded_at" is not null;