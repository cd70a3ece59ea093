/** Loads the question-set catalogue into the database: on an empty database at start, or on sync. */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { questionSets } from '../db/schema';
import type { QuestionSetRecord } from '../providers/types';

export type CatalogueSet = Omit<QuestionSetRecord, 'id'>;

/** Inserts or updates every set by its index. Returns how many were written. */
export async function upsertCatalogue(db: Db, sets: CatalogueSet[]): Promise<number> {
  if (sets.length === 0) return 0;
  await db
    .insert(questionSets)
    .values(sets.map((s) => ({ ...s })))
    .onConflictDoUpdate({
      target: questionSets.index,
      set: {
        name: sql`excluded.name`,
        isPremium: sql`excluded.is_premium`,
        requiresFeedback: sql`excluded.requires_feedback`,
        questions: sql`excluded.questions`,
        instructions: sql`excluded.instructions`,
        modelAnswers: sql`excluded.model_answers`,
      },
    });
  return sets.length;
}

/** First start: an empty database gets the shipped catalogue; an operator's later edits are kept. */
export async function loadCatalogueIfEmpty(db: Db, load: () => Promise<CatalogueSet[]>): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(questionSets);
  if ((row?.n ?? 0) > 0) return 0;
  return upsertCatalogue(db, await load());
}
