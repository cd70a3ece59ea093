ALTER TABLE "accounts" ADD COLUMN "rated_interviews" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Backfill: databases created before the counter existed.
UPDATE "accounts" AS a SET "rated_interviews" = c.n FROM (
	SELECT "account_id", count(*)::int AS n FROM "events"
	WHERE "event_type" = 'RATE' AND "rating_status" = 'rated' AND "account_id" IS NOT NULL
	GROUP BY "account_id"
) AS c WHERE c."account_id" = a."id";
