/**
 * The admin feedback list's pages change rarely, so their JSON is built once per table state
 * instead of per request. Feedback rows are inserted and deleted (ids only grow), and updated in
 * one place only: moving a question set renumbers the feedback given on it
 * (services/admin/question-sets.ts), and every set it moves is marked moved (or edited) then. So
 * (count, max id) of the feedback and the question sets' latest edit or move identify the state;
 * the check is one index-backed query. The pages last asked for (the first one and those loaded after it with
 * "Load more") are kept under that state. Each process keeps its own copy, so several servers on
 * one PostgreSQL stay correct.
 */
import { count, max, sql } from 'drizzle-orm';
import { feedbackListSchema } from '../../../contract';
import type { Db } from '../../db/client';
import { feedback, questionSets } from '../../db/schema';
import { listFeedback } from './console';

/** Pages kept per state, at most (the least recently asked goes first). */
export const CACHED_FEEDBACK_PAGES = 16;

export function createFeedbackListCache(db: Db): (page: { limit: number; before?: number | undefined }) => Promise<string> {
  let state = '';
  const pages = new Map<string, string>();
  return async (page) => {
    const [now] = await db
      .select({
        n: count(),
        last: max(feedback.id),
        edited: sql<string | null>`(select max(greatest(${questionSets.editedAt}, ${questionSets.movedAt}))::text from ${questionSets})`,
      })
      .from(feedback);
    const key = `${now?.n ?? 0}:${now?.last ?? 0}:${now?.edited ?? ''}`;
    if (key !== state) {
      state = key;
      pages.clear();
    }
    const which = `${page.limit}:${page.before ?? ''}`;
    const kept = pages.get(which);
    if (kept !== undefined) {
      // Most recently asked last, so the oldest goes first when the map is full.
      pages.delete(which);
      pages.set(which, kept);
      return kept;
    }
    // Read after the key: a write in between gives a newer list under an older key, which the
    // next request's key no longer matches, so it is rebuilt (never served stale).
    const json = JSON.stringify(feedbackListSchema.parse(await listFeedback(db, page)));
    if (pages.size >= CACHED_FEEDBACK_PAGES) pages.delete(pages.keys().next().value ?? '');
    pages.set(which, json);
    return json;
  };
}
