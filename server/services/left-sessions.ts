/**
 * Sessions that were left (docs/product-rules.md, Session lifecycle, Leaving and coming back): an
 * open session with no activity for SESSION_IDLE_MINUTES (no turn, no resume, no connect) is ended
 * by the server in the background job. What reached the server is rated, the feedback saying it was
 * ended automatically (History shows it, the admin the end reason `left`); a session with nothing
 * said gets its credit back as an empty one always did (within the daily refunds).
 *
 * Several servers may run this at once: the session moves open -> rated (or abandoned) by one
 * conditional UPDATE, so exactly one of them rates it.
 */
import { and, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../app-context';
import { accounts, events, interviewSessions } from '../db/schema';
import { leftDetail, leftNoteText } from './left-note';
import { findQuestionSet } from './question-sets';
import { hasCandidateWords, rateEvent } from './ratings';
import { ratingLeaseEnd } from './rating-leases';
import { runningCall } from './calls';
import { abandonWithRefund, OPEN_STATUSES, SESSION_RATING_WINDOW_MS, type InterviewSession } from './sessions';

/** Sessions ended per pass (the rest wait for the next one). */
const BATCH = 20;

/**
 * The session's last sign of life: minted, connected, resumed, or its newest transcript line (each
 * line's `at` counts from minting, as every transport writes it).
 */
export const lastActivity = sql<Date>`greatest(
  ${interviewSessions.createdAt},
  coalesce(${interviewSessions.tokenIssuedAt}, ${interviewSessions.createdAt}),
  coalesce(${interviewSessions.connectedAt}, ${interviewSessions.createdAt}),
  ${interviewSessions.createdAt} + coalesce((select max((line->>'at')::double precision) from jsonb_array_elements(${interviewSessions.turns}) line), 0) * interval '1 millisecond'
)`;

/** One pass: ends the sessions left open; returns how many were rated and how many ended with nothing said. */
export async function endLeftSessions(ctx: AppContext): Promise<{ rated: number; empty: number }> {
  const idleMs = Math.round(ctx.config.sessionIdleMinutes * 60_000);
  const idleSince = sql`now() - ${idleMs}::int * interval '1 millisecond'`;
  const left = await ctx.db
    .select()
    .from(interviewSessions)
    .where(
      and(
        inArray(interviewSessions.status, OPEN_STATUSES),
        // Past the window they expire instead (expireStaleSessions).
        sql`${interviewSessions.createdAt} > now() - ${SESSION_RATING_WINDOW_MS}::int * interval '1 millisecond'`,
        lt(interviewSessions.createdAt, idleSince),
        sql`${lastActivity} < ${idleSince}`,
      ),
    )
    .limit(BATCH);
  let rated = 0;
  let empty = 0;
  for (const session of left) {
    // A call this process still hears is not left (its own idle hang-up ends it first).
    if (runningCall(ctx, session.id)) continue;
    try {
      const outcome = await endLeft(ctx, session, leftDetail(ctx.config.sessionIdleMinutes), idleSince);
      if (outcome === 'rated') rated++;
      if (outcome === 'empty') empty++;
    } catch (error) {
      ctx.log.error({ err: error, sessionId: session.id }, 'ending a left session failed');
    }
  }
  if (rated + empty > 0) ctx.log.info({ rated, empty }, 'ended sessions left open');
  return { rated, empty };
}

/** The columns that say the server ended it as left (an end recorded before, e.g. a dropped connection, gives way). */
function leftEnd(detail: string) {
  return { endedAt: sql`coalesce(${interviewSessions.endedAt}, now())`, endReason: 'left' as const, endDetail: detail };
}

async function endLeft(ctx: AppContext, session: InterviewSession, detail: string, idleSince: SQL): Promise<'rated' | 'empty' | 'gone'> {
  if (!hasCandidateWords(session.turns)) {
    const outcome = await abandonWithRefund(ctx.db, session, 'end', { reason: 'left', detail }, 'if-no-call');
    return outcome.result === 'not-open' ? 'gone' : 'empty';
  }
  const set = await findQuestionSet(ctx.db, session.questionSetId);
  if (!set) return 'gone';
  const durationSeconds = Math.max(0, Math.round(Math.max(0, ...session.turns.map((line) => line.at ?? 0)) / 1000));
  const stored = await ctx.db.transaction(async (tx) => {
    const claimed = await tx
      .update(interviewSessions)
      .set({ status: 'rated', ...leftEnd(detail) })
      // Still open and still idle: a turn or a resume since the pass read it keeps the session going.
      .where(
        and(eq(interviewSessions.id, session.id), inArray(interviewSessions.status, OPEN_STATUSES), sql`${lastActivity} < ${idleSince}`),
      )
      .returning({ accountId: interviewSessions.accountId });
    if (claimed.length === 0) return null;
    const [account] = await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, session.accountId));
    const [row] = await tx
      .insert(events)
      .values({
        eventType: 'RATE',
        accountId: session.accountId,
        userEmail: account?.email ?? null,
        questionSetId: set.id,
        topic: set.name,
        questionSetIndex: set.index - 1,
        sessionId: session.id,
        durationSeconds,
        transcript: session.turns,
        ratingStatus: 'pending',
        nextRatingAt: ratingLeaseEnd,
      })
      .returning({ id: events.id });
    return row ?? null;
  });
  // The candidate came back (a turn, a rating) meanwhile: the session is theirs.
  if (!stored) return 'gone';
  try {
    await rateEvent(
      ctx,
      { id: stored.id, sessionId: session.id },
      set,
      { transcripts: session.turns, durationSeconds },
      leftNoteText(detail),
    );
  } catch {
    // Logged and scheduled for a retry by rateEvent; the transcript is stored.
  }
  return 'rated';
}
