/** The catalogue as callers see it; premium model answers only for an active pro. */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { QuestionSet } from '../../contract';
import type { Db } from '../db/client';
import { questionSets } from '../db/schema';
import { readerModelAnswers } from '../catalogue/model-answers';
import { HttpError } from './http-error';
import type { QuestionSetRecord } from '../db/schema';

export const UNKNOWN_SET = 'This question set does not exist.';

/**
 * Every active set as a pro sees it (with all model answers, as a candidate reads them: without the
 * rater's phrasing blocks), sorted by index; archived sets are hidden.
 */
export async function allQuestionSets(db: Db): Promise<QuestionSet[]> {
  const rows = await db.select().from(questionSets).where(isNull(questionSets.archivedAt)).orderBy(asc(questionSets.index));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    index: row.index,
    isPremium: row.isPremium,
    requiresFeedback: row.requiresFeedback,
    modelAnswers: readerModelAnswers(row.modelAnswers),
    questions: row.questions,
  }));
}

export function hidePremiumAnswers(sets: QuestionSet[], pro: boolean): QuestionSet[] {
  return sets.map((s) => ({ ...s, modelAnswers: s.isPremium && !pro ? null : s.modelAnswers }));
}

export async function findQuestionSet(db: Db, id: number): Promise<QuestionSetRecord | null> {
  const [row] = await db.select().from(questionSets).where(eq(questionSets.id, id)).limit(1);
  return row ?? null;
}

export async function requireQuestionSet(db: Db, id: number): Promise<QuestionSetRecord> {
  const set = await findQuestionSet(db, id);
  if (!set) throw new HttpError(404, UNKNOWN_SET);
  return set;
}

/** A set a new session may start on: it exists and is not archived (404 otherwise). */
export async function requireActiveQuestionSet(db: Db, id: number): Promise<QuestionSetRecord> {
  const [row] = await db
    .select()
    .from(questionSets)
    .where(and(eq(questionSets.id, id), isNull(questionSets.archivedAt)))
    .limit(1);
  if (!row) throw new HttpError(404, UNKNOWN_SET);
  return row;
}
