/**
 * POST /interview/sessions/{id}/abandon: a start that failed in the browser. A live voice call of
 * the session is hung up first; the session ends, and its credit comes back only when nothing was
 * paid for upstream (no turn, no spoken answer, no voice call: sessions.ts `neverUsed`), within
 * ABANDON_WINDOW_MS of minting and the daily refunds.
 */
import type { AbandonResponse } from '../../contract';
import type { AppContext } from '../app-context';
import { requireAccount } from './accounts';
import { HttpError } from './http-error';
import { END_ABANDONED, endRunningCall } from './calls';
import {
  ABANDON_TOO_LATE,
  ABANDON_WINDOW_MS,
  abandonWithRefund,
  ALREADY_RATED,
  findSession,
  NOT_YOUR_SESSION,
  refundLimitText,
  UNKNOWN_SESSION,
} from './sessions';

export async function abandonSession(ctx: AppContext, email: string, sessionId: string): Promise<AbandonResponse> {
  const account = await requireAccount(ctx.db, email);
  const session = await findSession(ctx.db, sessionId);
  if (!session) throw new HttpError(404, UNKNOWN_SESSION);
  if (session.accountId !== account.id) throw new HttpError(403, NOT_YOUR_SESSION);
  const answer = (creditReturned: boolean): AbandonResponse => ({ sessionId: session.id, status: 'abandoned', creditReturned });
  // A repeat (the browser retried) answers the same, and never refunds twice.
  if (session.status === 'abandoned') return answer(session.refundedAt !== null);
  if (session.status === 'rated') throw new HttpError(409, ALREADY_RATED);
  if (session.status === 'expired' || Date.now() - session.createdAt.getTime() > ABANDON_WINDOW_MS) {
    throw new HttpError(409, ABANDON_TOO_LATE);
  }
  // A call this process runs is hung up now; one in another process sees the session end (calls/registry.ts).
  await endRunningCall(ctx, session.id, END_ABANDONED);
  const outcome = await abandonWithRefund(ctx.db, session, 'refuse', { reason: 'failed-start' }, 'if-unused');
  if (outcome.result === 'limit') throw new HttpError(429, refundLimitText(outcome.retryInMs));
  if (outcome.result === 'not-open') {
    const now = await findSession(ctx.db, session.id);
    if (now?.status === 'abandoned') return answer(now.refundedAt !== null);
    throw new HttpError(409, ALREADY_RATED);
  }
  if (outcome.result === 'used') {
    ctx.log.info({ sessionId: session.id }, 'session abandoned after it was used; no credit returned');
    return answer(false);
  }
  ctx.log.info({ sessionId: session.id }, 'session abandoned; credit returned');
  return answer(true);
}
