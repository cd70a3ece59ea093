/**
 * The interview session as the server owns it (docs/decisions/002-credit-accounting.md):
 *
 *   minted ──▶ live ──▶ rated
 *     │          │
 *     └──────────┴──▶ abandoned (credit given back: failed start, nothing said)
 *                └──▶ expired   (not rated within SESSION_RATING_WINDOW_MS)
 *
 * Every transport (OpenAI realtime, browser speech, later ones) goes through these functions; the
 * transitions are single conditional UPDATEs, so concurrent calls cannot move a session twice.
 */
import { and, count, desc, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { SessionEndReason, TokenResponse } from '../../contract';
import type { Db } from '../db/client';
import { accounts, interviewSessions, type SessionStatus } from '../db/schema';
import { HttpError } from './http-error';
import { refundCredit } from './credits';
import { createHash } from 'node:crypto';

export type InterviewSession = typeof interviewSessions.$inferSelect;

/** A session can be rated this long after it was minted. */
export const SESSION_RATING_WINDOW_MS = 4 * 60 * 60 * 1000;
/** A failed start can be abandoned (credit back) this long after minting. */
export const ABANDON_WINDOW_MS = 2 * 60 * 1000;
/** Credits given back per account in any 24 hours (abandoned starts and empty sessions). */
export const MAX_REFUNDS_PER_DAY = 3;
const REFUND_PERIOD_MS = 24 * 60 * 60 * 1000;
/** Transports whose interviewer lines come from POST /interview/turn (they get a session token). */
export const TURN_TRANSPORTS: ReadonlySet<TokenResponse['transport']> = new Set(['browser-speech', 'speech-pipeline']);

/** Not yet rated, abandoned or expired. */
export const OPEN_STATUSES: SessionStatus[] = ['minted', 'live'];

export const NO_OPEN_SESSION = 'There is no open interview session for this topic. Start a session first.';
export const UNKNOWN_SESSION = 'This interview session is not known. Please start a new session.';
export const NOT_YOUR_SESSION = 'This interview session belongs to another user.';
export const ALREADY_RATED = 'This interview session was already rated, so its credit cannot be returned.';
export const ABANDON_TOO_LATE = 'This interview session started more than 2 minutes ago, so its credit can no longer be returned.';
export const SESSION_ENDED = 'This interview session has already ended. Please start a new session.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isSessionId(value: string): boolean {
  return UUID.test(value);
}

/** "about 5 hours" / "about 20 minutes": when a refused call can be tried again. */
export function waitText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 90) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `about ${Math.round(minutes / 60)} hours`;
}

export function refundLimitText(retryInMs: number): string {
  return `At most ${MAX_REFUNDS_PER_DAY} session credits a day are given back. Please try again in ${waitText(retryInMs)}.`;
}

/** What a session row keeps of its token: its sha256. Every transport's token is ours: it proves the session (turns, or an OpenAI call's SDP offer). */
export function sessionTokenHash(token: TokenResponse): string {
  return hashToken(token.client_secret.value);
}

export async function findSession(db: Db, id: string): Promise<InterviewSession | null> {
  if (!isSessionId(id)) return null;
  const [row] = await db.select().from(interviewSessions).where(eq(interviewSessions.id, id)).limit(1);
  return row ?? null;
}

/**
 * The session a rating belongs to: the named one (the caller's, for this set, minted within the
 * window, not abandoned or expired) or the caller's newest open one for the set. 409 otherwise.
 */
export async function sessionForRating(db: Db, accountId: number, questionSetId: number, sessionId?: string): Promise<InterviewSession> {
  const since = new Date(Date.now() - SESSION_RATING_WINDOW_MS);
  const mine = and(
    eq(interviewSessions.accountId, accountId),
    eq(interviewSessions.questionSetId, questionSetId),
    gt(interviewSessions.createdAt, since),
  );
  if (sessionId !== undefined) {
    if (!isSessionId(sessionId)) throw new HttpError(409, NO_OPEN_SESSION);
    const [row] = await db
      .select()
      .from(interviewSessions)
      .where(and(eq(interviewSessions.id, sessionId), mine))
      .limit(1);
    if (!row || row.status === 'abandoned' || row.status === 'expired') throw new HttpError(409, NO_OPEN_SESSION);
    return row;
  }
  const [row] = await db
    .select()
    .from(interviewSessions)
    .where(and(mine, inArray(interviewSessions.status, OPEN_STATUSES)))
    .orderBy(desc(interviewSessions.createdAt))
    .limit(1);
  if (!row) throw new HttpError(409, NO_OPEN_SESSION);
  return row;
}

/** open -> rated; false when another call got there first (or the session is no longer open). */
export async function claimForRating(db: Db, sessionId: string): Promise<boolean> {
  const rows = await db
    .update(interviewSessions)
    .set({ status: 'rated' })
    .where(and(eq(interviewSessions.id, sessionId), inArray(interviewSessions.status, OPEN_STATUSES)))
    .returning({ id: interviewSessions.id });
  return rows.length === 1;
}

/** minted -> live (a transport saw the interview start); a no-op in any other state. */
export async function markLive(db: Db, sessionId: string): Promise<void> {
  await db
    .update(interviewSessions)
    .set({ status: 'live' })
    .where(and(eq(interviewSessions.id, sessionId), eq(interviewSessions.status, 'minted')));
}

export type RefundOutcome = { result: 'refunded' } | { result: 'limit'; retryInMs: number } | { result: 'not-open' } | { result: 'used' };

/**
 * Nothing was paid for upstream: no turn or spoken answer taken, no voice call claimed or connected.
 * Only such a session gets its credit back when it is abandoned (README, Security and limits).
 */
export function neverUsed(session: InterviewSession): boolean {
  return session.turns.length === 0 && session.turnCalls === 0 && session.speechAnswers === 0 && noCallOpened(session);
}

/**
 * No OpenAI voice call was claimed or connected: such a call is paid for whether or not anything
 * was heard, so a session that had one never gets its credit back, however it ends.
 */
export function noCallOpened(session: InterviewSession): boolean {
  return session.callTokenHash === null && (session.transport !== 'openai-realtime' || session.connectedAt === null);
}

/**
 * open -> abandoned, giving the credit back while the account has refunds left in the last 24
 * hours. `withoutRefund: 'end'` still ends the session when the daily refunds are used up.
 * The account row is locked so concurrent refunds cannot pass the cap together.
 */
export async function abandonWithRefund(
  db: Db,
  session: InterviewSession,
  overLimit: 'refuse' | 'end',
  /** Telemetry: why it ended, unless an end was recorded before (docs/product-rules.md, Session telemetry). */
  end: { reason: SessionEndReason; detail?: string } = { reason: 'failed-start' },
  /**
   * `if-unused`: a session that was used (neverUsed) ends without its credit ('used');
   * `if-no-call`: only a session that opened an OpenAI call (noCallOpened) does.
   */
  refund: 'always' | 'if-unused' | 'if-no-call' = 'always',
): Promise<RefundOutcome> {
  return db.transaction(async (tx) => {
    // NO KEY UPDATE: serialises the refunds of one account, yet lets a rating's event row name the
    // account meanwhile (its foreign key takes KEY SHARE); FOR UPDATE deadlocked a rating racing
    // this abandon on PostgreSQL (server/tests/rating-races.test.ts).
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, session.accountId)).for('no key update');
    let unused = true;
    if (refund !== 'always') {
      // Locked, so a turn or a call cannot be taken between this check and the end.
      const [row] = await tx.select().from(interviewSessions).where(eq(interviewSessions.id, session.id)).for('update');
      unused = row !== undefined && (refund === 'if-unused' ? neverUsed(row) : noCallOpened(row));
    }
    const since = new Date(Date.now() - REFUND_PERIOD_MS);
    const recent = and(
      eq(interviewSessions.accountId, session.accountId),
      isNotNull(interviewSessions.refundedAt),
      gt(interviewSessions.refundedAt, since),
    );
    const [used] = await tx
      .select({ n: count(), oldest: sql<string | null>`min(${interviewSessions.refundedAt})` })
      .from(interviewSessions)
      .where(recent);
    const allowed = unused && (used?.n ?? 0) < MAX_REFUNDS_PER_DAY;
    if (!allowed && unused && overLimit === 'refuse') {
      const oldest = used?.oldest ? new Date(used.oldest).getTime() : Date.now();
      return { result: 'limit', retryInMs: oldest + REFUND_PERIOD_MS - Date.now() };
    }
    const ended = await tx
      .update(interviewSessions)
      .set({ status: 'abandoned', ...endUnlessEnded(end), ...(allowed ? { refundedAt: sql`now()` } : {}) })
      .where(and(eq(interviewSessions.id, session.id), inArray(interviewSessions.status, OPEN_STATUSES)))
      .returning({ id: interviewSessions.id });
    if (ended.length === 0) return { result: 'not-open' };
    if (!unused) return { result: 'used' };
    if (!allowed) return { result: 'limit', retryInMs: 0 };
    await refundCredit(tx, session.accountId);
    return { result: 'refunded' };
  });
}

/** The columns that record an end, leaving an end recorded earlier as it is (the first end wins). */
function endUnlessEnded(end: { reason: SessionEndReason; detail?: string }) {
  const ended = sql`${interviewSessions.endedAt} is not null`;
  return {
    endedAt: sql`coalesce(${interviewSessions.endedAt}, now())`,
    endReason: sql`case when ${ended} then ${interviewSessions.endReason} else ${end.reason}::text end`,
    endDetail: sql`case when ${ended} then ${interviewSessions.endDetail} else ${end.detail?.slice(0, 300) ?? null}::text end`,
  };
}

/** Open sessions older than the rating window can no longer be rated. Returns how many expired. */
export async function expireStaleSessions(db: Db): Promise<number> {
  const rows = await db
    .update(interviewSessions)
    // Telemetry: a session nobody reported an end for ends as expired (its end time stays unknown).
    .set({ status: 'expired', endReason: sql`coalesce(${interviewSessions.endReason}, 'expired')` })
    .where(
      and(
        inArray(interviewSessions.status, OPEN_STATUSES),
        lt(interviewSessions.createdAt, new Date(Date.now() - SESSION_RATING_WINDOW_MS)),
      ),
    )
    .returning({ id: interviewSessions.id });
  return rows.length;
}
