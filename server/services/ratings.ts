/**
 * Rating a transcript: the transcript is stored first (RATE event, pending), then rated; a failed
 * rating leaves it stored. Ratings left pending by a crash are completed at the next start.
 * A rating belongs to exactly one interview session (sessions.ts).
 */
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Pagination, RateRequest, RateResponse, RatingBreakdown, RatingItem, SessionInput, TranscriptEntry } from '../../contract';
import type { AppContext } from '../app-context';
import type { AppConfig } from '../config';
import { preparedRows, type Db } from '../db/client';
import { accounts, events, interviewSessions } from '../db/schema';
import { LLM_RATING_ATTEMPTS } from '../providers/rating/llm-rater';
import { levelCompletion } from '../../domain/level-completion';
import { HttpError } from './http-error';
import type { QuestionSetRecord } from '../db/schema';
import { requireAccount, UNKNOWN_USER, type Account } from './accounts';
import { findQuestionSet, requireQuestionSet } from './question-sets';
import { INAUDIBLE, settleRealtimeCall } from './calls';
import { llmUsageTally, quietly, recordEnd, recordInput, recordLlmUsage } from './session-telemetry';
import { leftSessionNote } from './left-note';
import { withAskedQuestions } from './asked-questions';
import { ratingRefusedFull, storedBytes } from './account-storage';
import { claimableRating, claimRating, holdingRating, ratingLeaseEnd } from './rating-leases';
import { abandonWithRefund, claimForRating, NO_OPEN_SESSION, sessionForRating, waitText, type InterviewSession } from './sessions';

/** What a candidate reads when the rating failed: exactly what the background retries will do. */
export function ratingFailedText(config: Pick<AppConfig, 'ratingRetryAttempts' | 'ratingRetryDelaySeconds'>): string {
  const retries = config.ratingRetryAttempts;
  if (retries === 0)
    return 'We could not rate this interview right now. Your transcript is saved, but it will not be rated again automatically.';
  const totalMs = config.ratingRetryDelaySeconds * 1000 * (2 ** retries - 1);
  return (
    `We could not rate this interview right now. Your transcript is saved, and we will try again automatically up to ${retries} ` +
    `time${retries === 1 ? '' : 's'} over ${waitText(totalMs)}; the feedback appears in your history once it is rated.`
  );
}
export const NOTHING_TO_RATE = 'No answers were recorded in this session, so there is nothing to rate. Your session credit was returned.';
export const NOTHING_TO_RATE_NO_REFUND =
  'No answers were recorded in this session, so there is nothing to rate. Your session credit was not returned: at most 3 a day are given back.';
export const NOTHING_TO_RATE_CALL_OPENED =
  'No answers were recorded in this session, so there is nothing to rate. Your session credit was not returned: the voice call had already been opened.';

/** An answer the voice service could not transcribe: kept in the transcript as its mark, rated as none. */
const isInaudible = (entry: TranscriptEntry): boolean => entry.role === 'interviewee' && entry.transcript === INAUDIBLE;

/** A candidate said something: at least one letter or digit in an interviewee line. */
export function hasCandidateWords(entries: readonly TranscriptEntry[]): boolean {
  return entries.some((entry) => entry.role === 'interviewee' && !isInaudible(entry) && /[\p{L}\p{N}]/u.test(entry.transcript));
}

/**
 * How the candidate answered (docs/product-rules.md, Session telemetry): typed when every answer
 * with words was typed, voice when any was spoken, null without answers.
 */
export function answerInput(entries: readonly TranscriptEntry[]): SessionInput | null {
  const answers = entries.filter((entry) => entry.role === 'interviewee' && /[\p{L}\p{N}]/u.test(entry.transcript));
  if (answers.length === 0) return null;
  return answers.every((entry) => entry.input === 'typed') ? 'typed' : 'voice';
}

/** Said plainly in the feedback: answers the voice service could not transcribe were not rated on their words. */
export function inaudibleNote(entries: readonly TranscriptEntry[]): string {
  const n = entries.filter(isInaudible).length;
  if (n === 0) return '';
  return `\n\n> ${n === 1 ? 'One answer' : `${n} answers`} could not be heard (marked "${INAUDIBLE}" in the transcript), so ${n === 1 ? 'it was' : 'they were'} rated as unanswered.`;
}

/**
 * The AI rater's language-model calls one session may cause at most: every attempt of its one
 * rating and of each background retry (README, Security and limits). A restart that finishes a
 * pending rating counts against it too, so no path rates one credit's interview without end.
 */
export function raterCallBudget(config: Pick<AppConfig, 'ratingRetryAttempts'>): number {
  return LLM_RATING_ATTEMPTS * (1 + config.ratingRetryAttempts);
}

/** Takes one of the session's rater calls (one conditional UPDATE, so it holds across server processes), or answers false. */
async function reserveRaterCall(db: Db, sessionId: string, budget: number): Promise<boolean> {
  const reserved = await db
    .update(interviewSessions)
    .set({ raterCalls: sql`${interviewSessions.raterCalls} + 1` })
    .where(and(eq(interviewSessions.id, sessionId), lt(interviewSessions.raterCalls, budget)))
    .returning({ id: interviewSessions.id });
  return reserved.length === 1;
}

export async function rateEvent(
  ctx: AppContext,
  event: { id: number; sessionId: string | null },
  set: QuestionSetRecord,
  input: Pick<RateRequest, 'transcripts' | 'durationSeconds'>,
  /** Said first in the feedback (a session the server ended: left-sessions.ts); looked up from the session when not given. */
  lead?: string,
): Promise<RateResponse> {
  const eventId = event.id;
  const note = lead ?? (event.sessionId ? await leftSessionNote(ctx.db, event.sessionId) : '');
  const llm = llmUsageTally({ rater: true });
  const sessionId = event.sessionId;
  const budget = raterCallBudget(ctx.config);
  let result;
  try {
    const rated = await holdingRating(ctx, eventId, () =>
      ctx.providers.rater.rate({
        set,
        // Rated as none, as inaudibleNote says; the mark stays in the stored transcript.
        transcripts: input.transcripts.filter((entry) => !isInaudible(entry)),
        durationSeconds: input.durationSeconds,
        meter: llm.meter,
        // An event from before sessions existed has no session to count against.
        ...(sessionId ? { reserveCall: () => reserveRaterCall(ctx.db, sessionId, budget) } : {}),
      }),
    );
    result = { ...rated, markdown: note + rated.markdown + inaudibleNote(input.transcripts) };
  } catch (error) {
    ctx.log.error({ err: error, eventId }, 'rating failed');
    await scheduleRetry(ctx, eventId);
    throw new HttpError(502, ratingFailedText(ctx.config));
  } finally {
    // The AI rater's tokens count in the session's cost, whichever attempt (a retry, a restart) made them.
    if (sessionId) await quietly(ctx, 'usage', recordLlmUsage(ctx, sessionId, llm));
  }
  const score = Math.max(0, Math.min(100, Math.round(result.score)));
  await ctx.db.transaction(async (tx) => {
    // The counter moves only on the first transition to rated, so it cannot count one twice.
    const [rated] = await tx
      .update(events)
      .set({
        ratingStatus: 'rated',
        ratingMarkdown: result.markdown,
        ratingBreakdown: result.breakdown,
        score,
        rater: result.rater,
        nextRatingAt: null,
        ratingAttempts: sql`${events.ratingAttempts} + 1`,
      })
      .where(and(eq(events.id, eventId), sql`${events.ratingStatus} is distinct from 'rated'`))
      .returning({ accountId: events.accountId });
    if (rated?.accountId != null) {
      await tx
        .update(accounts)
        .set({ ratedInterviews: sql`${accounts.ratedInterviews} + 1` })
        .where(eq(accounts.id, rated.accountId));
    }
  });
  return {
    id: eventId,
    markdown: result.markdown,
    score,
    breakdown: result.breakdown,
    level: levelCompletion(result.breakdown, score, ctx.config.levelPassScore),
  };
}

/**
 * After a failed attempt: failed with the next try after RATING_RETRY_DELAY_SECONDS doubling per
 * attempt, or given up once RATING_RETRY_ATTEMPTS retries were spent (the transcript stays).
 */
async function scheduleRetry(ctx: AppContext, eventId: number): Promise<void> {
  const { ratingRetryAttempts, ratingRetryDelaySeconds } = ctx.config;
  const attempts = sql`${events.ratingAttempts} + 1`;
  await ctx.db
    .update(events)
    .set({
      ratingAttempts: attempts,
      ratingStatus: sql`case when ${attempts} > ${ratingRetryAttempts}::int then 'given_up' else 'failed' end`,
      nextRatingAt: sql`case when ${attempts} > ${ratingRetryAttempts}::int then null
        else now() + ${ratingRetryDelaySeconds}::int * power(2, ${events.ratingAttempts})::int * interval '1 second' end`,
    })
    .where(and(eq(events.id, eventId), sql`${events.ratingStatus} is distinct from 'rated'`));
}

/** A rating of the session already running in this process is waited for, not started again. */
function once(ctx: AppContext, sessionId: string, run: () => Promise<RateResponse>): Promise<RateResponse> {
  const running = ctx.ratingRegistry;
  const current = running.get(sessionId);
  if (current) return current;
  const started = run().finally(() => running.delete(sessionId));
  running.set(sessionId, started);
  return started;
}

export const RATING_IN_PROGRESS = 'This interview is being rated right now. The feedback appears in your history once it is rated.';
export const RATING_GIVEN_UP = 'We could not rate this interview. Your transcript is saved, but it will not be rated again automatically.';

/**
 * The session's stored rating, or its state: a repeat never rates again (every credit
 * buys a bounded cost: README, Security and limits). A failed rating is rated again only by the capped background retries.
 */
async function storedRating(ctx: AppContext, session: InterviewSession): Promise<RateResponse> {
  const [event] = await ctx.db
    .select({
      id: events.id,
      ratingStatus: events.ratingStatus,
      ratingMarkdown: events.ratingMarkdown,
      score: events.score,
      ratingBreakdown: events.ratingBreakdown,
    })
    .from(events)
    .where(and(eq(events.sessionId, session.id), eq(events.eventType, 'RATE')))
    .limit(1);
  if (!event) throw new HttpError(409, NO_OPEN_SESSION);
  if (event.ratingStatus === 'rated' && event.ratingMarkdown !== null) {
    const score = event.score ?? 0;
    const breakdown = event.ratingBreakdown ?? [];
    return {
      id: event.id,
      markdown: event.ratingMarkdown,
      score,
      breakdown,
      level: levelCompletion(breakdown, score, ctx.config.levelPassScore),
    };
  }
  if (event.ratingStatus === 'failed') throw new HttpError(502, ratingFailedText(ctx.config));
  if (event.ratingStatus === 'given_up') throw new HttpError(502, RATING_GIVEN_UP);
  throw new HttpError(409, RATING_IN_PROGRESS);
}

/**
 * Nothing was said: no rating, and the credit goes back (within the daily refunds), unless an
 * OpenAI call was opened, which is paid for whatever was heard (abandon's rule: abandon.ts).
 */
async function nothingToRate(ctx: AppContext, session: InterviewSession): Promise<never> {
  const outcome = await abandonWithRefund(ctx.db, session, 'end', { reason: 'stopped-by-candidate' }, 'if-no-call');
  if (outcome.result === 'refunded') throw new HttpError(422, NOTHING_TO_RATE);
  if (outcome.result === 'limit') throw new HttpError(422, NOTHING_TO_RATE_NO_REFUND);
  if (outcome.result === 'used') throw new HttpError(422, NOTHING_TO_RATE_CALL_OPENED);
  // Another call rated or ended the session meanwhile.
  await storedRating(ctx, session);
  throw new HttpError(409, NO_OPEN_SESSION);
}

/**
 * The account is full: the transcript is not stored or rated, the session ends, and its credit
 * follows the rule of a session with nothing to rate (back within the daily refunds, unless an
 * OpenAI call was opened); the sentence says which.
 */
async function storageFull(ctx: AppContext, session: InterviewSession): Promise<never> {
  const quota = ctx.config.accountStorageBytes;
  const outcome = await abandonWithRefund(
    ctx.db,
    session,
    'end',
    { reason: 'stopped-by-candidate', detail: 'storage limit' },
    'if-no-call',
  );
  if (outcome.result === 'refunded') throw new HttpError(403, ratingRefusedFull(quota, 'returned'));
  if (outcome.result === 'limit') throw new HttpError(403, ratingRefusedFull(quota, 'daily-limit'));
  if (outcome.result === 'used') throw new HttpError(403, ratingRefusedFull(quota, 'call-opened'));
  // Another call rated or ended the session meanwhile.
  await storedRating(ctx, session);
  throw new HttpError(409, NO_OPEN_SESSION);
}

async function rateSession(
  ctx: AppContext,
  account: Account,
  set: QuestionSetRecord,
  session: InterviewSession,
  input: RateRequest,
): Promise<RateResponse> {
  if (session.status === 'rated') return storedRating(ctx, session);
  // A live voice call's transcript is the one the server heard over its sideband; the browser's
  // copy is for display only. Elsewhere the server's record of the turns counts when the browser
  // sent no answers.
  const realtime = session.transport === 'openai-realtime';
  // Telemetry (docs/product-rules.md, Session telemetry): the browser's reason first, unless it is
  // an OpenAI call's close, which the server heard with its reason; then the call's own end; then
  // the rating ends it. The first end recorded wins.
  const told = input.endReason;
  if (told && !(realtime && told === 'closed-by-interviewer')) await quietly(ctx, 'end', recordEnd(ctx.db, session.id, { reason: told }));
  if (realtime) session = await settleRealtimeCall(ctx, session);
  await quietly(
    ctx,
    'end',
    recordEnd(ctx.db, session.id, { reason: session.finishedAt ? 'closed-by-interviewer' : 'stopped-by-candidate' }),
  );
  // The browser's copy says nothing of which question a line asked: the server's turns do (asked-questions.ts).
  const transcripts = realtime
    ? hasCandidateWords(session.turns)
      ? session.turns
      : null
    : hasCandidateWords(input.transcripts)
      ? withAskedQuestions(input.transcripts, session.turns)
      : hasCandidateWords(session.turns)
        ? session.turns
        : null;
  if (!transcripts) return nothingToRate(ctx, session);
  // The browser guessed the input when it connected; the answers say how the candidate really answered.
  const answered = realtime ? null : answerInput(transcripts);
  if (answered && answered !== session.input) await quietly(ctx, 'input', recordInput(ctx.db, session.id, answered));

  const stored = await ctx.db.transaction(async (tx) => {
    // The quota again, under the account's row lock (NO KEY UPDATE, as a refund takes it), so the
    // ratings of one account are stored one after another and each sees the one before: sessions
    // minted while the account was empty cannot all store their transcripts (account-storage.ts).
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, account.id)).for('no key update');
    if ((await storedBytes(tx, account.id)) >= ctx.config.accountStorageBytes) return 'full' as const;
    if (!(await claimForRating(tx, session.id))) return null;
    const [row] = await tx
      .insert(events)
      .values({
        eventType: 'RATE',
        accountId: account.id,
        userEmail: account.email,
        questionSetId: set.id,
        topic: set.name,
        questionSetIndex: set.index - 1,
        sessionId: session.id,
        durationSeconds: input.durationSeconds,
        transcript: transcripts,
        ratingStatus: 'pending',
        // Held by this server while it rates (rating-leases.ts).
        nextRatingAt: ratingLeaseEnd,
      })
      .returning({ id: events.id });
    return row ?? null;
  });
  if (stored === 'full') return storageFull(ctx, session);
  // Another process claimed it first: answer its rating.
  if (!stored) return storedRating(ctx, session);
  return rateEvent(ctx, { id: stored.id, sessionId: session.id }, set, { transcripts, durationSeconds: input.durationSeconds }, '');
}

/**
 * POST /interview/rate-transcript: bound to one session (sessions.ts); the first rating of a
 * session is stored, any repeat answers it. An empty interview is not rated and refunded (422).
 */
export async function rateTranscript(ctx: AppContext, email: string, input: RateRequest): Promise<RateResponse> {
  const account = await requireAccount(ctx.db, email);
  const set = await requireQuestionSet(ctx.db, input.questionSetId);
  const session = await sessionForRating(ctx.db, account.id, set.id, input.sessionId);
  return once(ctx, session.id, () => rateSession(ctx, account, set, session, input));
}

/**
 * Start-up: finish ratings a crash interrupted. On PostgreSQL another server may be rating one right
 * now: only a rating whose lease ran out is taken (rating-leases.ts), and the background pass takes
 * the others once their server stops renewing. PGlite has one server per data directory (locked), so
 * whatever is pending there was left by a stopped one. Returns how many were rated.
 */
export async function completePendingRatings(ctx: AppContext, database: 'alone' | 'shared'): Promise<number> {
  const onlyServer = database === 'alone';
  const pending = await ctx.db
    .select({ id: events.id })
    .from(events)
    .where(onlyServer ? eq(events.ratingStatus, 'pending') : and(eq(events.ratingStatus, 'pending'), claimableRating))
    .orderBy(asc(events.id));
  let done = 0;
  for (const { id } of pending) {
    const event = onlyServer ? await takePending(ctx.db, id) : await claimRating(ctx.db, id);
    if (event && (await rateStored(ctx, event))) done += 1;
  }
  if (pending.length > 0) ctx.log.info({ pending: pending.length, rated: done }, 'completed pending ratings');
  return done;
}

async function takePending(db: Db, id: number) {
  const [event] = await db
    .update(events)
    .set({ nextRatingAt: ratingLeaseEnd })
    .where(and(eq(events.id, id), eq(events.ratingStatus, 'pending')))
    .returning();
  return event ?? null;
}

/** Rates a stored event this server claimed; false when it failed (logged and rescheduled by rateEvent) or its set is gone. */
async function rateStored(ctx: AppContext, event: typeof events.$inferSelect): Promise<boolean> {
  const set = event.questionSetId === null ? null : await findQuestionSet(ctx.db, event.questionSetId);
  if (!set) {
    await ctx.db.update(events).set({ ratingStatus: 'given_up', nextRatingAt: null }).where(eq(events.id, event.id));
    return false;
  }
  try {
    await rateEvent(ctx, event, set, { transcripts: event.transcript ?? [], durationSeconds: event.durationSeconds ?? 0 });
    return true;
  } catch {
    return false;
  }
}

/**
 * The history page in one statement (one round trip): the account, its rated-interview count and
 * the page. Only what a history card shows is read: the transcript (the largest column) stays in
 * the table.
 */
const HISTORY_PAGE_SQL = `
  with account as (select id from accounts where email = $1),
  rated as (
    select e.id, e.topic, e.question_set_index, e.score, e.event_timestamp, e.duration_seconds, e.rating_markdown, e.rating_breakdown
    from events e
    where e.account_id = (select id from account) and e.event_type = 'RATE' and e.rating_status = 'rated'
  )
  select (select id from account) as account_id,
    (select count(*)::int from rated) as total,
    coalesce((select json_agg(json_build_array(p.id, p.topic, p.question_set_index, p.score, p.event_timestamp, p.duration_seconds, p.rating_markdown, p.rating_breakdown) order by p.id desc)
              from (select * from rated order by id desc limit $2 offset $3) p), '[]') as page`;

interface HistoryPageRow {
  account_id: number | null;
  total: number;
  /** [id, topic, question_set_index, score, event_timestamp (ISO text), duration_seconds, rating_markdown, rating_breakdown], newest first. */
  page: Array<[number, string | null, number | null, number | null, string, number | null, string | null, RatingBreakdown | null]>;
}

export async function listRatings(
  ctx: AppContext,
  email: string,
  page: number,
  limit: number,
): Promise<{ ratings: RatingItem[]; pagination: Pagination }> {
  const [row] = await preparedRows<HistoryPageRow>(ctx.db, 'history-page', HISTORY_PAGE_SQL, [email, limit, (page - 1) * limit]);
  if (!row || row.account_id === null) throw new HttpError(401, UNKNOWN_USER);
  const totalCount = row.total;
  const totalPages = Math.ceil(totalCount / limit);
  return {
    ratings: row.page.map(([id, topic, questionSetIndex, score, at, durationSeconds, ratingMarkdown, breakdown]) => ({
      id,
      topic,
      questionSetIndex,
      score,
      eventTimestamp: new Date(at).toISOString(),
      durationSeconds,
      ratingMarkdown,
      breakdown,
    })),
    pagination: { page, limit, totalCount, totalPages, hasNextPage: page < totalPages, hasPreviousPage: page > 1 },
  };
}

/**
 * One pass of the background retries: failed ratings whose time has come, and pending ones whose
 * server stopped renewing its lease, are claimed (so two servers never rate one twice:
 * rating-leases.ts) and rated again. Returns how many were rated.
 */
export async function retryFailedRatings(ctx: AppContext, batch = 20): Promise<number> {
  const due = await ctx.db
    .select({ id: events.id })
    .from(events)
    .where(claimableRating)
    .orderBy(sql`${events.nextRatingAt} asc nulls first`)
    .limit(batch);
  let rated = 0;
  for (const { id } of due) {
    const claimed = await claimRating(ctx.db, id);
    if (claimed && (await rateStored(ctx, claimed))) rated += 1;
  }
  if (due.length > 0) ctx.log.info({ due: due.length, rated }, 'retried failed ratings');
  return rated;
}
