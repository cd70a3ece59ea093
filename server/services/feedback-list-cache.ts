/**
 * The admin feedback list's first page is what the page opens with and changes rarely, so its
 * JSON is built once per table state instead of per request. Feedback rows are
 * only inserted and deleted, never updated (and ids only grow), so (count, max id) identifies the
 * table's state; the check is one index-backed query. Each process keeps its own copy, so several
 * servers on one PostgreSQL stay correct.
 */
import { count, max } from 'drizzle-orm';
import { feedbackListSchema } from '../../contract';
import type { Db } from '../db/client';
import { feedback } from '../db/schema';
import { listFeedback } from './admin';

export function createFeedbackListCache(db: Db): (page: { limit: number; before?: number | undefined }) => Promise<string> {
  let cached: { key: string; json: string } | null = null;
  return async (page) => {
    // Older pages are read as asked; the first page (what the list opens with) is kept.
    if (page.before !== undefined) return JSON.stringify(feedbackListSchema.parse(await listFeedback(db, page)));
    const [state] = await db.select({ n: count(), last: max(feedback.id) }).from(feedback);
    const key = `${state?.n ?? 0}:${state?.last ?? 0}:${page.limit}`;
    if (cached?.key === key) return cached.json;
    // Read after the key: a write in between gives a newer list under an older key, which the
    // next request's key no longer matches, so it is rebuilt (never served stale).
    const json = JSON.stringify(feedbackListSchema.parse(await listFeedback(db, page)));
    cached = { key, json };
    return json;
  };
}
