-- The admin list's transcript preview (issue 33 item 2), kept with the row: 6 = EVENT_PREVIEW_ENTRIES
-- and 300 = EVENT_PREVIEW_CHARS in contract/limits.ts. Adding the columns computes them for every
-- existing row (the backfill); PostgreSQL recomputes them whenever a row is written.
CREATE FUNCTION event_transcript_preview(t jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN t IS NOT NULL THEN (
    SELECT coalesce(jsonb_agg((e - 'transcript') || jsonb_build_object('transcript', left(e ->> 'transcript', 300)) ORDER BY i), '[]'::jsonb)
    FROM jsonb_array_elements(t) WITH ORDINALITY x(e, i) WHERE i <= 6) END
$$;--> statement-breakpoint
CREATE FUNCTION event_transcript_cut(t jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT t IS NOT NULL AND (jsonb_array_length(t) > 6 OR EXISTS (
    SELECT 1 FROM jsonb_array_elements(t) WITH ORDINALITY x(e, i) WHERE i <= 6 AND length(e ->> 'transcript') > 300))
$$;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "transcript_preview" jsonb GENERATED ALWAYS AS (event_transcript_preview(transcript)) STORED;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "transcript_cut" boolean GENERATED ALWAYS AS (event_transcript_cut(transcript)) STORED;