/**
 * The admin's CSV exports, streamed: rows are read in keyset pages (by id, newest first, as the
 * admin lists show them) and written as the
 * client takes them, so memory stays flat however many ratings or feedback rows there are.
 * Columns, the byte-order mark and formula neutralisation come from domain/csv-exports.ts.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, desc, eq, lt } from 'drizzle-orm';
import { CSV_BOM, FEEDBACK_HEADER, feedbackCsvRow, RATINGS_HEADER, ratingCsvRow } from '../../../domain/csv-exports';
import { csvRow } from '../../../domain/csv';
import { isPglite, type Db } from '../../db/client';
import { events, feedback } from '../../db/schema';

/** Rows per database read: large enough to keep round trips few, small enough to stay flat. */
export const EXPORT_PAGE_SIZE = 500;
/**
 * Ratings per database read: a rating holds up to 200,000 characters of transcript and its
 * markdown besides, so 500 of them were hundreds of MB read and joined at once (issue 33: the
 * export held every other request for 13 s). 16 keep a read to a few MB.
 */
export const RATINGS_EXPORT_PAGE_SIZE = 16;
/**
 * On PGlite the database runs on the server's own thread: reading 16 ratings of 200,000
 * characters (detoasting and decompressing them) held /healthz for 815 ms (issue 33 item 2). One
 * rating a read keeps each synchronous step to one rating's few milliseconds.
 */
export const PGLITE_RATINGS_EXPORT_PAGE_SIZE = 1;

/** Pages of rows by descending id, until a short page. */
async function* keysetPages<T extends { id: number }>(
  readBefore: (id: number | null) => Promise<T[]>,
  size = EXPORT_PAGE_SIZE,
): AsyncGenerator<T[]> {
  let before: number | null = null;
  for (;;) {
    const page = await readBefore(before);
    if (page.length > 0) yield page;
    if (page.length < size) return;
    before = page[page.length - 1]?.id ?? 0;
  }
}

const isRating = eq(events.eventType, 'RATE');

/** `before` null: from the newest row. */
const olderThan = (column: typeof events.id | typeof feedback.id, before: number | null) =>
  before === null ? undefined : lt(column, before);

function readRatings(db: Db, before: number | null, size: number) {
  return db
    .select({
      id: events.id,
      userEmail: events.userEmail,
      topic: events.topic,
      questionSetIndex: events.questionSetIndex,
      eventTimestamp: events.eventTimestamp,
      durationSeconds: events.durationSeconds,
      score: events.score,
      rater: events.rater,
      transcript: events.transcript,
      ratingMarkdown: events.ratingMarkdown,
    })
    .from(events)
    .where(and(isRating, olderThan(events.id, before)))
    .orderBy(desc(events.id))
    .limit(size);
}

/** One chunk per rating, so the stream's backpressure holds the reads back to the client's pace. */
async function* ratingsCsv(db: Db): AsyncGenerator<string> {
  yield CSV_BOM + csvRow(RATINGS_HEADER);
  const inProcess = isPglite(db);
  const size = inProcess ? PGLITE_RATINGS_EXPORT_PAGE_SIZE : RATINGS_EXPORT_PAGE_SIZE;
  for await (const page of keysetPages((before) => readRatings(db, before, size), size)) {
    for (const row of page) yield ratingCsvRow({ ...row, eventTimestamp: row.eventTimestamp.toISOString() });
    // PGlite's reads and the chunks' writes are all this thread's: let other requests (and the
    // socket's draining) run between two reads, or back-to-back reads still add up to one stall.
    if (inProcess) await nextTurn();
  }
}

function readFeedback(db: Db, before: number | null) {
  return db.select().from(feedback).where(olderThan(feedback.id, before)).orderBy(desc(feedback.id)).limit(EXPORT_PAGE_SIZE);
}

async function* feedbackCsv(db: Db): AsyncGenerator<string> {
  yield CSV_BOM + csvRow(FEEDBACK_HEADER);
  for await (const page of keysetPages((before) => readFeedback(db, before))) {
    yield page.map((row) => feedbackCsvRow({ ...row, createdAt: row.createdAt.toISOString() })).join('');
  }
}

/** Every RATE event (any rating status) as CSV chunks; null when there is none. */
export async function exportRatings(db: Db): Promise<AsyncIterable<string> | null> {
  const [any] = await db.select({ id: events.id }).from(events).where(isRating).limit(1);
  return any ? ratingsCsv(db) : null;
}

/** Every feedback row as CSV chunks; null when there is none. */
export async function exportFeedback(db: Db): Promise<AsyncIterable<string> | null> {
  const [any] = await db.select({ id: feedback.id }).from(feedback).limit(1);
  return any ? feedbackCsv(db) : null;
}
