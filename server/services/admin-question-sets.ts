/**
 * The question-set editor: the database is the source of truth once loaded. Every write is
 * checked with the catalogue files' own rules (server/catalogue/read-catalogue.ts) and marks the
 * set as edited, so `catalogue:sync` will not overwrite it unless forced. A set that interviews
 * refer to is archived instead of deleted, so history keeps its topic.
 */
import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import type { AdminQuestionSet, QuestionSetDeleteResult, QuestionSetInput } from '../../contract';
import { CatalogueError, checkCatalogueSet } from '../catalogue/read-catalogue';
import type { Db } from '../db/client';
import { events, questionSets } from '../db/schema';
import { HttpError } from './http-error';
import { UNKNOWN_SET } from './question-sets';

type Row = typeof questionSets.$inferSelect;

function toAdminSet(row: Row, ratings: number): AdminQuestionSet {
  return {
    id: row.id,
    name: row.name,
    index: row.index,
    isPremium: row.isPremium,
    requiresFeedback: row.requiresFeedback,
    instructions: row.instructions,
    questions: row.questions,
    modelAnswers: row.modelAnswers,
    editedAt: row.editedAt ? row.editedAt.toISOString() : null,
    archivedAt: row.archivedAt ? row.archivedAt.toISOString() : null,
    ratings,
  };
}

async function ratingCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .select({ id: events.questionSetId, n: count() })
    .from(events)
    .where(and(eq(events.eventType, 'RATE'), eq(events.ratingStatus, 'rated')))
    .groupBy(events.questionSetId);
  return new Map(rows.flatMap((r) => (r.id === null ? [] : [[r.id, r.n] as const])));
}

/** Active sets in tile order, then archived ones (newest archive first). */
export async function listAdminQuestionSets(db: Db): Promise<AdminQuestionSet[]> {
  const [rows, ratings] = await Promise.all([
    db.select().from(questionSets).orderBy(sql`${questionSets.archivedAt} is not null`, sql`${questionSets.archivedAt} desc`, asc(questionSets.index)),
    ratingCounts(db),
  ]);
  return rows.map((row) => toAdminSet(row, ratings.get(row.id) ?? 0));
}

/** The catalogue's rules, answered as a 400 sentence. */
function checked(input: QuestionSetInput): QuestionSetInput {
  try {
    return checkCatalogueSet('', { ...input });
  } catch (error) {
    if (error instanceof CatalogueError) {
      const sentence = error.problem.startsWith('has ') ? `This question set ${error.problem}` : `In this question set, ${error.problem}`;
      throw new HttpError(400, /[.!?]$/.test(sentence) ? sentence : `${sentence}.`);
    }
    throw error;
  }
}

async function requireIndexFree(db: Db, index: number, exceptId: number | null): Promise<void> {
  const [taken] = await db
    .select({ id: questionSets.id, name: questionSets.name })
    .from(questionSets)
    .where(and(eq(questionSets.index, index), isNull(questionSets.archivedAt), exceptId === null ? undefined : ne(questionSets.id, exceptId)))
    .limit(1);
  if (taken) throw new HttpError(409, `The index ${index} is already used by the set "${taken.name}". Choose a free index.`);
}

function missingIndexes(indexes: number[]): number[] {
  const present = new Set(indexes);
  const highest = Math.max(0, ...indexes);
  return Array.from({ length: highest }, (_, i) => i + 1).filter((i) => !present.has(i));
}

/**
 * Sets unlock one index after another (a set needs the one before it done), so a set placed
 * beyond a gap could never be reached. A change may not open a new gap in the active indexes.
 */
async function requireNoNewGap(db: Db, index: number, exceptId: number | null): Promise<void> {
  const rows = await db.select({ id: questionSets.id, index: questionSets.index }).from(questionSets).where(isNull(questionSets.archivedAt));
  const before = new Set(missingIndexes(rows.map((r) => r.index)));
  const after = missingIndexes([...rows.filter((r) => r.id !== exceptId).map((r) => r.index), index]);
  const opened = after.find((i) => !before.has(i));
  if (opened !== undefined) {
    throw new HttpError(400, `With the index ${index} no set would have the index ${opened}; sets unlock one index after another, so the tile order must not have gaps.`);
  }
}

async function ratingsOf(db: Db, id: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(events)
    .where(and(eq(events.questionSetId, id), eq(events.eventType, 'RATE'), eq(events.ratingStatus, 'rated')));
  return row?.n ?? 0;
}

export async function createQuestionSet(db: Db, input: QuestionSetInput): Promise<AdminQuestionSet> {
  const set = checked(input);
  await requireIndexFree(db, set.index, null);
  await requireNoNewGap(db, set.index, null);
  const [row] = await db
    .insert(questionSets)
    .values({ ...set, editedAt: sql`now()` })
    .returning();
  if (!row) throw new Error('The new question set was not written.');
  return toAdminSet(row, 0);
}

export async function updateQuestionSet(db: Db, id: number, input: QuestionSetInput): Promise<AdminQuestionSet> {
  const set = checked(input);
  const [existing] = await db.select({ archivedAt: questionSets.archivedAt }).from(questionSets).where(eq(questionSets.id, id)).limit(1);
  if (!existing) throw new HttpError(404, UNKNOWN_SET);
  if (existing.archivedAt) throw new HttpError(409, 'This question set is archived and can no longer be edited.');
  await requireIndexFree(db, set.index, id);
  await requireNoNewGap(db, set.index, id);
  const [row] = await db
    .update(questionSets)
    .set({ ...set, editedAt: sql`now()` })
    .where(eq(questionSets.id, id))
    .returning();
  if (!row) throw new HttpError(404, UNKNOWN_SET);
  return toAdminSet(row, await ratingsOf(db, id));
}

/** Deleted when no interview refers to it; archived (hidden, index freed) otherwise. */
export async function deleteQuestionSet(db: Db, id: number): Promise<QuestionSetDeleteResult> {
  const [existing] = await db.select({ archivedAt: questionSets.archivedAt }).from(questionSets).where(eq(questionSets.id, id)).limit(1);
  if (!existing) throw new HttpError(404, UNKNOWN_SET);
  const [used] = await db.select({ id: events.id }).from(events).where(eq(events.questionSetId, id)).limit(1);
  if (!used) {
    await db.delete(questionSets).where(eq(questionSets.id, id));
    return { outcome: 'deleted' };
  }
  if (!existing.archivedAt) await db.update(questionSets).set({ archivedAt: sql`now()`, editedAt: sql`now()` }).where(eq(questionSets.id, id));
  return { outcome: 'archived' };
}
