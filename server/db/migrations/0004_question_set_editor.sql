DROP INDEX "question_sets_index_key";--> statement-breakpoint
ALTER TABLE "question_sets" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "question_sets" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "question_sets_index_key" ON "question_sets" USING btree ("index") WHERE "question_sets"."archived_at" is null;