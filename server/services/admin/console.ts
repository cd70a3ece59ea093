/** Operator calls: events, stats, email accounts and plans, feedback. */
import { randomUUID } from 'node:crypto';
import { asc, count, desc, eq, gt, lt } from 'drizzle-orm';
import type { AdminCounts, AdminEvent, AdminEventRow, AdminFeedback, EmailAccount, InterviewStats } from '../../../contract';
import { EVENT_PREVIEW_CHARS, EVENT_PREVIEW_ENTRIES } from '../../../contract/limits';
import type { AppConfig } from '../../config';
import { preparedRows, type Db } from '../../db/client';
import { accounts, events, feedback, interviewSessions } from '../../db/schema';
import { HttpError } from '../http-error';
import { findAccount, type Account } from '../accounts';
import { toTelemetry } from '../session-telemetry';
import { isMixedScriptEmail } from '../../../domain/email-scripts';

/** An ISO 8601 UTC timestamp in milliseconds, cut (not rounded) as JavaScript's Date does. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A timestamp in whole milliseconds since 1970, as Date.getTime() gives it. */
const epochMs = (column: string) => `(extract(epoch from date_trunc('milliseconds', ${column})) * 1000)::bigint`;

/**
 * The events page in one statement (one round trip) that answers the JSON itself: 100 events with
 * their transcripts are ~200 KB, and parsing them into objects, checking them against the contract
 * and writing them out again cost more than the query. The JSON is what toAdminEvent and the
 * contract's encoding give for the same rows (server/services/events-page.test.ts proves it on
 * both databases, and that the contract's schema accepts it unchanged; docs/decisions/021-events-page-json-from-postgresql.md). The
 * session's turns stay in the database: only their interviewee count is read. So do the event's
 * texts: a transcript may hold 200,000 characters, and 100 of them were 30 MB that held every other
 * request (issue 33 item 2), so the page carries previews cut by the database (the first
 * EVENT_PREVIEW_ENTRIES entries, each cut to EVENT_PREVIEW_CHARS characters, as is the Markdown) and
 * no breakdown; eventDetails answers one whole event. The transcript's preview is a column the
 * database keeps when the row is written (migration 0014): cutting it here detoasted every whole
 * transcript of the page, 500 × 200,000 characters held PGlite's thread 412 ms.
 */
const EVENTS_PAGE_SQL = `
  select coalesce(json_agg(json_build_object(
    'id', e.id, 'userEmail', e.user_email, 'eventType', e.event_type, 'topic', e.topic,
    'questionSetIndex', e.question_set_index, 'eventTimestamp', ${iso('e.event_timestamp')},
    'durationSeconds', e.duration_seconds,
    'transcript', e.transcript_preview,
    'ratingMarkdown', left(e.rating_markdown, ${EVENT_PREVIEW_CHARS}),
    'truncated', coalesce(length(e.rating_markdown) > ${EVENT_PREVIEW_CHARS}, false) or coalesce(e.transcript_cut, false),
    'score', e.score, 'rater', e.rater,
    'session', case when s.id is null then null else json_build_object(
      'sessionId', s.id, 'transport', s.transport, 'input', s.input, 'status', s.status,
      'startedAt', ${iso('s.created_at')}, 'connectedAt', ${iso('s.connected_at')}, 'endedAt', ${iso('s.ended_at')},
      'connectMs', case when s.connected_at is not null then greatest(0, ${epochMs('s.connected_at')} - ${epochMs('s.created_at')}) end,
      'lengthSeconds', case when s.connected_at is not null and s.ended_at is not null
        then greatest(0, round((${epochMs('s.ended_at')} - ${epochMs('s.connected_at')}) / 1000.0))::bigint end,
      'endReason', s.end_reason, 'endDetail', s.end_detail,
      'candidateTurns', (select count(*) from jsonb_array_elements(s.turns) t where t ->> 'role' = 'interviewee'),
      'resumes', s.resumes, 'usage', s.usage, 'estimatedCostUsd', s.estimated_cost_usd,
      'errorCount', s.error_count, 'errors', s.errors) end
  ) order by e.id desc), '[]')::text as page,
  coalesce((select r.hits from rate_limits r where r.key = $3 and r.window_ends_at > now()), 0) as throttle_failures
  from (select * from events where id < coalesce($2::int, 2147483647) order by id desc limit $1) e
  left join interview_sessions s on s.id = e.session_id`;

/**
 * Newest first, each with its session's telemetry (docs/product-rules.md, Session telemetry), as
 * JSON text; with the admin-secret throttle's failure count for `throttleKey` read in the same
 * statement (PostgreSQL keeps it in `rate_limits`; services/admin/auth.ts settles it).
 */
export async function eventsPageJson(
  db: Db,
  limit: number,
  before: number | undefined,
  throttleKey: string,
): Promise<{ json: string; throttleFailures: number }> {
  const [row] = await preparedRows<{ page: string; throttle_failures: number }>(db, 'events-page', EVENTS_PAGE_SQL, [
    limit,
    before ?? null,
    throttleKey,
  ]);
  return { json: row?.page ?? '[]', throttleFailures: Number(row?.throttle_failures ?? 0) };
}

/** The first `n` characters as PostgreSQL's left() counts them (code points, not UTF-16 units). */
const leftChars = (text: string, n: number) => Array.from(text).slice(0, n).join('');
const longerThan = (text: string, n: number) => Array.from(text).length > n;

/** An event as a row of the list (the previews EVENTS_PAGE_SQL cuts; events-page.test.ts holds the two equal). */
export function toAdminEventRow(row: typeof events.$inferSelect, session: typeof interviewSessions.$inferSelect | null): AdminEventRow {
  const { ratingBreakdown: _details, ...event } = toAdminEvent(row, session);
  const shown = row.transcript?.slice(0, EVENT_PREVIEW_ENTRIES);
  return {
    ...event,
    transcript: shown?.map((entry) => ({ ...entry, transcript: leftChars(entry.transcript, EVENT_PREVIEW_CHARS) })) ?? null,
    ratingMarkdown: row.ratingMarkdown === null ? null : leftChars(row.ratingMarkdown, EVENT_PREVIEW_CHARS),
    truncated:
      (row.ratingMarkdown !== null && longerThan(row.ratingMarkdown, EVENT_PREVIEW_CHARS)) ||
      (row.transcript !== null &&
        (row.transcript.length > EVENT_PREVIEW_ENTRIES ||
          (shown ?? []).some((entry) => longerThan(entry.transcript, EVENT_PREVIEW_CHARS)))),
  };
}

/** One whole event with its session's telemetry: what the list's previews leave out (transcript, Markdown, breakdown). */
export async function eventDetails(db: Db, id: number): Promise<AdminEvent> {
  const [found] = await db
    .select({ event: events, session: interviewSessions })
    .from(events)
    .leftJoin(interviewSessions, eq(interviewSessions.id, events.sessionId))
    .where(eq(events.id, id))
    .limit(1);
  if (!found) throw new HttpError(404, `There is no event with the id ${id}.`);
  return toAdminEvent(found.event, found.session);
}

export function toAdminEvent(row: typeof events.$inferSelect, session: typeof interviewSessions.$inferSelect | null): AdminEvent {
  return {
    id: row.id,
    userEmail: row.userEmail,
    eventType: row.eventType,
    topic: row.topic,
    questionSetIndex: row.questionSetIndex,
    eventTimestamp: row.eventTimestamp.toISOString(),
    durationSeconds: row.durationSeconds,
    transcript: row.transcript,
    ratingMarkdown: row.ratingMarkdown,
    ratingBreakdown: row.ratingBreakdown,
    score: row.score,
    rater: row.rater,
    session: session ? toTelemetry(session) : null,
  };
}

/**
 * interviewCounts[n] = accounts with at least n rated interviews (n = 1..the most anyone has).
 * Reads the per-account counter (one row per account), never the events table.
 */
export async function interviewStats(db: Db): Promise<InterviewStats> {
  // One scan of accounts gives both the email count (every group) and the histogram (rated > 0).
  const all = await db.select({ rated: accounts.ratedInterviews, n: count() }).from(accounts).groupBy(accounts.ratedInterviews);
  const emailCount = all.reduce((sum, g) => sum + g.n, 0);
  const groups = all.filter((g) => g.rated > 0);
  const most = Math.max(0, ...groups.map((g) => g.rated));
  // exactly[k] accounts have k ratings; "at least n" is the suffix sum.
  const exactly = new Array<number>(most + 2).fill(0);
  for (const g of groups) exactly[g.rated] = g.n;
  const atLeast = new Array<number>(most + 2).fill(0);
  for (let n = most; n >= 1; n -= 1) atLeast[n] = (atLeast[n + 1] ?? 0) + (exactly[n] ?? 0);
  const interviewCounts: Record<string, number> = {};
  for (let n = 1; n <= most; n += 1) interviewCounts[String(n)] = atLeast[n] ?? 0;
  return { emailCount, interviewCounts };
}

export type PlanLimits = Pick<AppConfig, 'freeSessionLimit' | 'proSessionLimit'>;

/** The account's own limit, or its plan's default (the same rule the credit check applies). */
export function limitOf(limits: PlanLimits, row: Pick<Account, 'sessionLimit' | 'subscriptionId'>): number {
  return row.sessionLimit ?? (row.subscriptionId ? limits.proSessionLimit : limits.freeSessionLimit);
}

export function toEmailAccount(limits: PlanLimits, row: Account): EmailAccount {
  const limit = limitOf(limits, row);
  return {
    email: row.email,
    subscriptionId: row.subscriptionId,
    plan: row.subscriptionId ? 'pro' : 'free',
    sessionLimit: row.sessionLimit,
    limit,
    sessionsUsed: row.sessionsUsed,
    remaining: Math.max(0, limit - row.sessionsUsed),
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt ? row.lastLoginAt.toISOString() : null,
    mixedScript: isMixedScriptEmail(row.email),
  };
}

/** A page of accounts by email (`after`: the last email of the previous page). */
export async function listEmails(db: Db, limits: PlanLimits, page: { limit: number; after?: string | undefined }): Promise<EmailAccount[]> {
  const rows = await db
    .select()
    .from(accounts)
    .where(page.after === undefined ? undefined : gt(accounts.email, page.after))
    .orderBy(asc(accounts.email))
    .limit(page.limit);
  return rows.map((row) => toEmailAccount(limits, row));
}

/** The totals the paged lists show. */
export async function adminCounts(db: Db): Promise<AdminCounts> {
  const [[given], [held]] = await Promise.all([db.select({ n: count() }).from(feedback), db.select({ n: count() }).from(accounts)]);
  return { feedback: given?.n ?? 0, emails: held?.n ?? 0 };
}

/** An own session limit (null: back to the plan's default). Adding credits is a higher limit. */
export async function setSessionLimit(db: Db, limits: PlanLimits, email: string, sessionLimit: number | null): Promise<EmailAccount> {
  const [updated] = await db.update(accounts).set({ sessionLimit }).where(eq(accounts.email, email)).returning();
  if (!updated) throw new HttpError(404, `There is no account with the email ${email}.`);
  return toEmailAccount(limits, updated);
}

/**
 * {email, limit} creates (409 when it exists); {email, isPro, limit} sets the plan of an existing
 * account (404 otherwise). A numeric limit sets the account's own credit limit; null keeps it
 * (the admin page always sends null).
 */
export async function upsertEmail(
  db: Db,
  limits: PlanLimits,
  input: { email: string; isPro?: boolean; limit?: number | null },
): Promise<{ created: boolean; account: EmailAccount }> {
  const limit = typeof input.limit === 'number' ? { sessionLimit: input.limit } : {};
  if (input.isPro === undefined) {
    const [created] = await db
      .insert(accounts)
      .values({ email: input.email, ...limit })
      .onConflictDoNothing()
      .returning();
    if (!created) throw new HttpError(409, `The email ${input.email} already exists.`);
    return { created: true, account: toEmailAccount(limits, created) };
  }
  const existing = await findAccount(db, input.email);
  if (!existing) throw new HttpError(404, `There is no account with the email ${input.email}.`);
  const subscriptionId = input.isPro ? (existing.subscriptionId ?? `admin-${randomUUID()}`) : null;
  const [updated] = await db
    .update(accounts)
    .set({ subscriptionId, ...limit })
    .where(eq(accounts.id, existing.id))
    .returning();
  if (!updated) throw new HttpError(404, `There is no account with the email ${input.email}.`);
  return { created: false, account: toEmailAccount(limits, updated) };
}

export async function deleteEmail(db: Db, email: string): Promise<void> {
  const deleted = await db.delete(accounts).where(eq(accounts.email, email)).returning({ id: accounts.id });
  if (deleted.length === 0) throw new HttpError(404, `There is no account with the email ${email}.`);
}

/** A page of feedback, newest first (`before`: the last id of the previous page). */
export async function listFeedback(db: Db, page: { limit: number; before?: number | undefined }): Promise<AdminFeedback[]> {
  const rows = await db
    .select()
    .from(feedback)
    .where(page.before === undefined ? undefined : lt(feedback.id, page.before))
    .orderBy(desc(feedback.id))
    .limit(page.limit);
  return rows.map(toAdminFeedback);
}

export function toAdminFeedback(row: typeof feedback.$inferSelect): AdminFeedback {
  return {
    id: row.id,
    user: row.userEmail ? { email: row.userEmail } : null,
    topic: row.topic,
    questionIndex: row.questionIndex,
    feedback: row.feedback,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function deleteFeedback(db: Db, id: number): Promise<void> {
  const deleted = await db.delete(feedback).where(eq(feedback.id, id)).returning({ id: feedback.id });
  if (deleted.length === 0) throw new HttpError(404, `There is no feedback with the id ${id}.`);
}
