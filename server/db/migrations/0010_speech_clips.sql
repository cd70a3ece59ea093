CREATE TABLE "speech_clip_parts" (
	"clip_id" text NOT NULL,
	"seq" integer NOT NULL,
	"audio" "bytea" NOT NULL,
	CONSTRAINT "speech_clip_parts_clip_id_seq_pk" PRIMARY KEY("clip_id","seq")
);
--> statement-breakpoint
CREATE TABLE "speech_clips" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "speech_clip_parts" ADD CONSTRAINT "speech_clip_parts_clip_id_speech_clips_id_fk" FOREIGN KEY ("clip_id") REFERENCES "public"."speech_clips"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speech_clips" ADD CONSTRAINT "speech_clips_session_id_interview_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."interview_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "speech_clips_created_idx" ON "speech_clips" USING btree ("created_at");