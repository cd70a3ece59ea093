/**
 * Moves the question-set catalogue between files and the database. The database is the source of
 * truth once loaded: the shipped files fill an empty database, `catalogue:sync` is an explicit
 * import that leaves sets edited in the admin alone unless forced, `catalogue:export` writes the
 * database's sets back to files.
 */
import { and, asc, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { questionSets, type CatalogueSet } from '../db/schema';

export type { CatalogueSet };

/** Inserts or updates every set by its index (active sets only). Returns how many were written. */
export async function upsertCatalogue(db: Db, sets: CatalogueSet[]): Promise<number> {
  if (sets.length === 0) return 0;
  await db
    .insert(questionSets)
    .values(sets.map((s) => ({ ...s })))
    .onConflictDoUpdate({
      target: questionSets.index,
      // The unique index covers active sets only; an archived set keeps its old index.
      targetWhere: sql`${questionSets.archivedAt} is null`,
      set: {
        name: sql`excluded.name`,
        isPremium: sql`excluded.is_premium`,
        requiresFeedback: sql`excluded.requires_feedback`,
        questions: sql`excluded.questions`,
        instructions: sql`excluded.instructions`,
        modelAnswers: sql`excluded.model_answers`,
        // The files now hold this version: it is no longer an admin edit the files lack.
        editedAt: sql`null`,
        movedAt: sql`null`,
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

export interface ImportResult {
  /** Sets written (new or changed). */
  written: number;
  /** Sets already equal to their file. */
  unchanged: number;
  /** Indexes of admin-edited sets the files would overwrite (nothing is written when any). */
  refused: Array<{ index: number; name: string }>;
}

function sameContent(a: CatalogueSet, b: CatalogueSet): boolean {
  return (
    a.name === b.name &&
    a.isPremium === b.isPremium &&
    a.requiresFeedback === b.requiresFeedback &&
    a.instructions === b.instructions &&
    a.modelAnswers === b.modelAnswers &&
    JSON.stringify(a.questions) === JSON.stringify(b.questions)
  );
}

/**
 * `catalogue:sync`: files win over the database, except over a set an admin edited since the last
 * import, which is refused as a whole (nothing written) unless `force`.
 */
export async function importCatalogue(db: Db, sets: CatalogueSet[], force: boolean): Promise<ImportResult> {
  const indexes = sets.map((s) => s.index);
  const existing =
    indexes.length === 0
      ? []
      : await db
          .select()
          .from(questionSets)
          .where(and(isNull(questionSets.archivedAt), inArray(questionSets.index, indexes)));
  const byIndex = new Map(existing.map((row) => [row.index, row]));
  const changed = sets.filter((set) => {
    const row = byIndex.get(set.index);
    return !row || !sameContent(row, set);
  });
  const refused = changed.flatMap((set) => {
    const row = byIndex.get(set.index);
    // A set another set's move shifted is as much the admin's as an edited one.
    return row?.editedAt || row?.movedAt ? [{ index: row.index, name: row.name }] : [];
  });
  if (refused.length > 0 && !force) return { written: 0, unchanged: sets.length - changed.length, refused };
  await upsertCatalogue(db, changed);
  return { written: changed.length, unchanged: sets.length - changed.length, refused: [] };
}

/** The active sets in tile order, as catalogue files hold them. */
export async function exportCatalogue(db: Db): Promise<CatalogueSet[]> {
  const rows = await db.select().from(questionSets).where(isNull(questionSets.archivedAt)).orderBy(asc(questionSets.index));
  return rows.map((row) => ({
    name: row.name,
    index: row.index,
    isPremium: row.isPremium,
    requiresFeedback: row.requiresFeedback,
    questions: row.questions,
    instructions: row.instructions,
    modelAnswers: row.modelAnswers,
  }));
}
