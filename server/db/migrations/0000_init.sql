CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"subscription_id" text,
	"session_limit" integer,
	"sessions_used" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_type" text NOT NULL,
	"account_id" integer,
	"user_email" text,
	"question_set_id" integer,
	"topic" text,
	"question_set_index" integer,
	"session_id" uuid,
	"event_timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"duration_seconds" integer,
	"transcript" jsonb,
	"rating_status" text,
	"rating_markdown" text,
	"score" real,
	"rater" text
);
--> statement-breakpoint
CREATE TABLE "feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer,
	"user_email" text,
	"topic" text NOT NULL,
	"question_index" integer NOT NULL,
	"feedback" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interview_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"question_set_id" integer NOT NULL,
	"transport" text NOT NULL,
	"token_hash" text,
	"status" text DEFAULT 'active' NOT NULL,
	"turns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "question_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"index" integer NOT NULL,
	"is_premium" boolean DEFAULT false NOT NULL,
	"requires_feedback" boolean DEFAULT false NOT NULL,
	"questions" jsonb NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"model_answers" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_question_set_id_question_sets_id_fk" FOREIGN KEY ("question_set_id") REFERENCES "public"."question_sets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD CONSTRAINT "interview_sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_sessions" ADD CONSTRAINT "interview_sessions_question_set_id_question_sets_id_fk" FOREIGN KEY ("question_set_id") REFERENCES "public"."question_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_email_key" ON "accounts" USING btree ("email");--> statement-breakpoint
CREATE INDEX "events_account_type_id_idx" ON "events" USING btree ("account_id","event_type","id");--> statement-breakpoint
CREATE INDEX "events_pending_rating_idx" ON "events" USING btree ("rating_status") WHERE "events"."rating_status" = 'pending';--> statement-breakpoint
CREATE INDEX "feedback_account_topic_idx" ON "feedback" USING btree ("account_id","topic");--> statement-breakpoint
CREATE UNIQUE INDEX "interview_sessions_token_hash_key" ON "interview_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "interview_sessions_account_idx" ON "interview_sessions" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "question_sets_index_key" ON "question_sets" USING btree ("index");