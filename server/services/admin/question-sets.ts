/**
 * The question-set editor: the database is the source of truth once loaded. Every write is
 * checked with the catalogue files' own rules (server/catalogue/read-catalogue.ts) and marks the
 * set as edited, so `catalogue:sync` will not overwrite it unless forced. A set that interviews
 * refer to is archived instead of deleted, so history keeps its topic.
 */
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { AdminQuestionSet, QuestionSetDeleteResult, QuestionSetInput } from '../../../contract';
import { MAX_QUESTION_SETS } from '../../../contract/limits';
import { CatalogueError, checkCatalogueSet } from '../../catalogue/read-catalogue';
import type { Db } from '../../db/client';
import { events, questionSets } from '../../db/schema';
import { HttpError } from '../http-error';
import { UNKNOWN_SET } from '../question-sets';

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
    db
      .select()
      .from(questionSets)
      .orderBy(sql`${questionSets.archivedAt} is not null`, sql`${questionSets.archivedAt} desc`, asc(questionSets.index)),
    ratingCounts(db),
  ]);
  return rows.map((row) => toAdminSet(row, ratings.get(row.id) ?? 0));
}

/** The catalogue's rules, answered as a 400 sentence. */
export function checked(input: QuestionSetInput): QuestionSetInput {
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

/** Any fixed number: the advisory lock that serialises changes to the tile order. */
const ORDER_LOCK = 7_316_017;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
interface Placed {
  id: number;
  name: string;
  index: number;
}

export const TOO_MANY_SETS = `The catalogue holds at most ${MAX_QUESTION_SETS} question sets. Delete or archive one first.`;
const setCount = (count: number) => (count === 1 ? 'is 1 set' : `are ${count} sets`);
const pastTheEnd = (index: number, count: number, highest: number) =>
  `The index ${index} is past the end: there ${setCount(count)}, so this set can take an index from 1 to ${highest}. Sets unlock one index after another, so the tile order has no gaps.`;

/** The active sets in tile order, read under the order lock (held to the end of the transaction). */
async function lockedOrder(tx: Tx): Promise<Placed[]> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ORDER_LOCK})`);
  return tx
    .select({ id: questionSets.id, name: questionSets.name, index: questionSets.index })
    .from(questionSets)
    .where(isNull(questionSets.archivedAt))
    .orderBy(asc(questionSets.index), asc(questionSets.id));
}

const valuesList = (rows: Array<readonly (number | string)[]>) =>
  sql.join(
    rows.map(
      (row) =>
        sql`(${sql.join(
          row.map((v) => (typeof v === 'number' ? sql`${v}::int` : sql`${v}::text`)),
          sql`, `,
        )})`,
    ),
    sql`, `,
  );

/**
 * Gives the sets of `order` the indexes 1, 2, 3, ... in that order (a `null` keeps its place free
 * for a set about to be inserted), in the caller's transaction, so the tile order never has a gap
 * or a duplicate. What candidates earned stays with the set, not with the number: the events of a
 * moved set (levels and history are read from their `question_set_index`) and the feedback given
 * on it move with it. A set whose index changed is marked `moved_at`, not `edited_at`: shifted by
 * another set's move it was not edited (the editor's "edited here" is for edits), yet
 * `catalogue:sync` (which matches sets by index) must not write another file's set over it.
 * Answers the ids whose index changed.
 */
async function renumber(tx: Tx, order: Array<Placed | null>): Promise<number[]> {
  const moved = order.flatMap((set, i) => (set === null || set.index === i + 1 ? [] : [{ ...set, to: i + 1 }]));
  if (moved.length === 0) return [];
  const ids = valuesList(moved.map((m) => [m.id, m.to]));
  // Two steps: the unique index on active sets is checked row by row, so shifting a set by one
  // would collide with the set it moves onto. Negative indexes are free.
  await tx.execute(
    sql`update question_sets set index = -v.target, moved_at = now() from (values ${ids}) as v(id, target) where question_sets.id = v.id`,
  );
  await tx.execute(sql`update question_sets set index = -index where index < 0 and archived_at is null`);
  await tx.execute(sql`update events set question_set_index = v.target - 1 from (values ${ids}) as v(id, target)
    where events.question_set_id = v.id and events.question_set_index is distinct from v.target - 1`);
  const given = valuesList(moved.map((m) => [m.name, m.index, m.to]));
  await tx.execute(sql`update feedback set question_index = v.target from (values ${given}) as v(topic, was, target)
    where feedback.topic = v.topic and feedback.question_index = v.was`);
  return moved.map((m) => m.id);
}

/** `order` with `moving` taken out and put in at `index` (1-based). */
function placed<T extends Placed | null>(order: Placed[], moving: T, id: number, index: number): Array<Placed | T> {
  const rest = order.filter((set) => set.id !== id);
  return [...rest.slice(0, index - 1), moving, ...rest.slice(index - 1)];
}

async function requireActive(tx: Tx, id: number): Promise<void> {
  const [existing] = await tx.select({ archivedAt: questionSets.archivedAt }).from(questionSets).where(eq(questionSets.id, id)).limit(1);
  if (!existing) throw new HttpError(404, UNKNOWN_SET);
  if (existing.archivedAt) throw new HttpError(409, 'This question set is archived and can no longer be edited.');
}

/** Moves an active set to `index` inside the transaction; the sets between shift by one. True when it moved. */
async function moveWithin(tx: Tx, id: number, index: number): Promise<boolean> {
  const order = await lockedOrder(tx);
  const moving = order.find((set) => set.id === id);
  if (!moving) throw new HttpError(404, UNKNOWN_SET);
  if (index > order.length) throw new HttpError(400, pastTheEnd(index, order.length, order.length));
  return (await renumber(tx, placed(order, moving, id, index))).includes(id);
}

async function ratingsOf(db: Db, id: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(events)
    .where(and(eq(events.questionSetId, id), eq(events.eventType, 'RATE'), eq(events.ratingStatus, 'rated')));
  return row?.n ?? 0;
}

/**
 * Inserts the set at its index: the set there and every later one move one place down, in one
 * transaction (docs/product-rules.md, Admin area).
 */
export async function createQuestionSet(db: Db, input: QuestionSetInput): Promise<AdminQuestionSet> {
  const set = checked(input);
  const row = await db.transaction(async (tx) => {
    const order = await lockedOrder(tx);
    if (order.length >= MAX_QUESTION_SETS) throw new HttpError(409, TOO_MANY_SETS);
    if (set.index > order.length + 1) throw new HttpError(400, pastTheEnd(set.index, order.length, order.length + 1));
    await renumber(tx, placed(order, null, 0, set.index));
    const [inserted] = await tx
      .insert(questionSets)
      .values({ ...set, editedAt: sql`now()` })
      .returning();
    return inserted;
  });
  if (!row) throw new Error('The new question set was not written.');
  return toAdminSet(row, 0);
}

/** Saves the set; a new index moves it there, and the sets in between shift by one. */
export async function updateQuestionSet(db: Db, id: number, input: QuestionSetInput): Promise<AdminQuestionSet> {
  const set = checked(input);
  const row = await db.transaction(async (tx) => {
    await requireActive(tx, id);
    await moveWithin(tx, id, set.index);
    const [updated] = await tx
      .update(questionSets)
      .set({ ...set, editedAt: sql`now()` })
      .where(eq(questionSets.id, id))
      .returning();
    return updated;
  });
  if (!row) throw new HttpError(404, UNKNOWN_SET);
  return toAdminSet(row, await ratingsOf(db, id));
}

/**
 * Moves a set in the tile order (move up/down, drag); answers the whole list as it now is. The set
 * moved is edited here (its place is the admin's choice); the sets it shifted are only moved.
 */
export async function moveQuestionSet(db: Db, id: number, index: number): Promise<AdminQuestionSet[]> {
  await db.transaction(async (tx) => {
    await requireActive(tx, id);
    if (await moveWithin(tx, id, index))
      await tx
        .update(questionSets)
        .set({ editedAt: sql`now()` })
        .where(eq(questionSets.id, id));
  });
  return listAdminQuestionSets(db);
}

/**
 * Deleted when no interview refers to it; archived (hidden, index freed) otherwise. Either way the
 * later sets move up one place in the same transaction, so the tile order keeps no gap.
 */
export async function deleteQuestionSet(db: Db, id: number): Promise<QuestionSetDeleteResult> {
  return db.transaction(async (tx) => {
    const order = await lockedOrder(tx);
    const [existing] = await tx.select({ archivedAt: questionSets.archivedAt }).from(questionSets).where(eq(questionSets.id, id)).limit(1);
    if (!existing) throw new HttpError(404, UNKNOWN_SET);
    const [used] = await tx.select({ id: events.id }).from(events).where(eq(events.questionSetId, id)).limit(1);
    if (used) {
      if (!existing.archivedAt)
        await tx
          .update(questionSets)
          .set({ archivedAt: sql`now()`, editedAt: sql`now()` })
          .where(eq(questionSets.id, id));
    } else {
      await tx.delete(questionSets).where(eq(questionSets.id, id));
    }
    await renumber(
      tx,
      order.filter((set) => set.id !== id),
    );
    return { outcome: used ? 'archived' : 'deleted' };
  });
}
