/**
 * Rating a transcript: the transcript is stored first (RATE event, pending), then rated; a failed
 * rating leaves it stored. Ratings left pending by a crash are completed at the next start.
 */
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Pagination, RateRequest, RateResponse, RatingItem } from '../../contract';
import type { AppContext } from '../app-context';
import { accounts, events, interviewSessions } from '../db/schema';
import { HttpError } from '../plugins/errors';
import type { QuestionSetRecord } from '../providers/types';
import { requireAccount, type Account } from './accounts';
import { findQuestionSet, requireQuestionSet } from './question-sets';

export const RATING_FAILED = 'We could not rate this interview right now; your transcript is saved and will be rated later.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function ownSessionId(ctx: AppContext, account: Account, sessionId: string | undefined): Promise<string | null> {
  if (!sessionId || !UUID.test(sessionId)) return null;
  const [row] = await ctx.db
    .select({ id: interviewSessions.id })
    .from(interviewSessions)
    .where(and(eq(interviewSessions.id, sessionId), eq(interviewSessions.accountId, account.id)))
    .limit(1);
  return row?.id ?? null;
}

async function rateEvent(
  ctx: AppContext,
  eventId: number,
  set: QuestionSetRecord,
  input: Pick<RateRequest, 'transcripts' | 'durationSeconds'>,
): Promise<RateResponse> {
  let result;
  try {
    result = await ctx.providers.rater.rate({ set, transcripts: input.transcripts, durationSeconds: input.durationSeconds });
  } catch (error) {
    ctx.log.error({ err: error, eventId }, 'rating failed');
    await ctx.db.update(events).set({ ratingStatus: 'failed' }).where(eq(events.id, eventId));
    throw new HttpError(502, RATING_FAILED);
  }
  const score = Math.max(0, Math.min(100, Math.round(result.score)));
  await ctx.db.transaction(async (tx) => {
    // The counter moves only on the first transition to rated, so it cannot count one twice.
    const [rated] = await tx
      .update(events)
      .set({ ratingStatus: 'rated', ratingMarkdown: result.markdown, score, rater: result.rater })
      .where(and(eq(events.id, eventId), sql`${events.ratingStatus} is distinct from 'rated'`))
      .returning({ accountId: events.accountId });
    if (rated?.accountId != null) {
      await tx
        .update(accounts)
        .set({ ratedInterviews: sql`${accounts.ratedInterviews} + 1` })
        .where(eq(accounts.id, rated.accountId));
    }
  });
  return { id: eventId, markdown: result.markdown, score };
}

export async function rateTranscript(ctx: AppContext, email: string, input: RateRequest): Promise<RateResponse> {
  const account = await requireAccount(ctx.db, email);
  const set = await requireQuestionSet(ctx.db, input.questionSetId);
  const sessionId = await ownSessionId(ctx, account, input.sessionId);

  const [stored] = await ctx.db
    .insert(events)
    .values({
      eventType: 'RATE',
      accountId: account.id,
      userEmail: account.email,
      questionSetId: set.id,
      topic: set.name,
      questionSetIndex: set.index - 1,
      sessionId,
      durationSeconds: input.durationSeconds,
      transcript: input.transcripts,
      ratingStatus: 'pending',
    })
    .returning({ id: events.id });
  if (!stored) throw new Error('insert returned no row');
  if (sessionId) {
    await ctx.db
      .update(interviewSessions)
      .set({ status: 'finished', finishedAt: new Date() })
      .where(and(eq(interviewSessions.id, sessionId), eq(interviewSessions.status, 'active')));
  }
  return rateEvent(ctx, stored.id, set, input);
}

/** Start-up: finish ratings a crash interrupted. Returns how many were rated. */
export async function completePendingRatings(ctx: AppContext): Promise<number> {
  const pending = await ctx.db
    .select()
    .from(events)
    .where(eq(events.ratingStatus, 'pending'))
    .orderBy(asc(events.id));
  let done = 0;
  for (const event of pending) {
    const set = event.questionSetId === null ? null : await findQuestionSet(ctx.db, event.questionSetId);
    if (!set) {
      await ctx.db.update(events).set({ ratingStatus: 'failed' }).where(eq(events.id, event.id));
      continue;
    }
    try {
      await rateEvent(ctx, event.id, set, { transcripts: event.transcript ?? [], durationSeconds: event.durationSeconds ?? 0 });
      done += 1;
    } catch {
      // rateEvent logged it and marked it failed; the transcript stays stored.
    }
  }
  if (pending.length > 0) ctx.log.info({ pending: pending.length, rated: done }, 'completed pending ratings');
  return done;
}

export async function listRatings(
  ctx: AppContext,
  email: string,
  page: number,
  limit: number,
): Promise<{ ratings: RatingItem[]; pagination: Pagination }> {
  const account = await requireAccount(ctx.db, email);
  const where = and(eq(events.accountId, account.id), eq(events.eventType, 'RATE'), eq(events.ratingStatus, 'rated'));
  // The count and the page at once (two pool connections on PostgreSQL). Only what a history
  // card shows is read: the transcript (the largest column) stays in the table.
  const [[total], rows] = await Promise.all([
    ctx.db.select({ n: count() }).from(events).where(where),
    ctx.db
      .select({
        id: events.id,
        topic: events.topic,
        questionSetIndex: events.questionSetIndex,
        score: events.score,
        eventTimestamp: events.eventTimestamp,
        durationSeconds: events.durationSeconds,
        ratingMarkdown: events.ratingMarkdown,
      })
      .from(events)
      .where(where)
      .orderBy(desc(events.id))
      .limit(limit)
      .offset((page - 1) * limit),
  ]);
  const totalCount = total?.n ?? 0;
  const totalPages = Math.ceil(totalCount / limit);
  return {
    ratings: rows.map((row) => ({
      id: row.id,
      topic: row.topic,
      questionSetIndex: row.questionSetIndex,
      score: row.score,
      eventTimestamp: row.eventTimestamp.toISOString(),
      durationSeconds: row.durationSeconds,
      ratingMarkdown: row.ratingMarkdown,
    })),
    pagination: { page, limit, totalCount, totalPages, hasNextPage: page < totalPages, hasPreviousPage: page > 1 },
  };
}
