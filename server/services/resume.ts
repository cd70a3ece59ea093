/**
 * POST /interview/sessions/{id}/resume: after a dropped connection the same interview goes on.
 * The caller's open session gets a new session token (no credit is spent, the rating stays bound
 * to the session, so one interview is one credit and one rating), at most MAX_RESUMES times. For an
 * OpenAI voice session the next SDP offer starts a continuation call whose instructions carry the
 * transcript so far and where to pick up (providers/interviewer/continuation-instructions.ts); a turn-taking session goes on with
 * its stored turns, its first turn asking with `resume: true` (continuationTurn in turns.ts).
 */
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { TokenResponse } from '../../contract';
import type { AppContext } from '../app-context';
import { interviewSessions } from '../db/schema';
import { ProviderError } from '../providers/types';
import { requireAccount } from './accounts';
import { HttpError } from './http-error';
import { requireQuestionSet } from './question-sets';
import { END_RECONNECTED, endRunningCall } from './calls';
import { findSession, hashToken, NOT_YOUR_SESSION, OPEN_STATUSES, SESSION_ENDED, UNKNOWN_SESSION } from './sessions';

/** Reconnections per interview session. */
export const MAX_RESUMES = 2;
export const TOO_MANY_RESUMES = `This interview has already been reconnected ${MAX_RESUMES} times. Please start a new session.`;
export const NOT_RESUMABLE = 'This interview session cannot be reconnected.';

export async function resumeSession(ctx: AppContext, email: string, sessionId: string): Promise<TokenResponse> {
  const account = await requireAccount(ctx.db, email);
  const session = await findSession(ctx.db, sessionId);
  if (!session) throw new HttpError(404, UNKNOWN_SESSION);
  if (session.accountId !== account.id) throw new HttpError(403, NOT_YOUR_SESSION);
  if (!OPEN_STATUSES.includes(session.status) || session.finishedAt) throw new HttpError(409, SESSION_ENDED);
  // Only the transport this server runs can continue the session.
  if (session.transport !== ctx.providers.voice.transport) throw new HttpError(409, NOT_RESUMABLE);
  if (session.resumes >= MAX_RESUMES) throw new HttpError(429, TOO_MANY_RESUMES);
  const set = await requireQuestionSet(ctx.db, session.questionSetId);

  let token: TokenResponse;
  try {
    token = await ctx.providers.voice.createSession({ sessionId: session.id, set, userEmail: account.email });
  } catch (error) {
    if (error instanceof ProviderError) throw new HttpError(error.status, error.message);
    throw error;
  }
  // The old call (if this process still hears it) gives way to the continuation first: it stores its
  // last lines while its token is still the session's, as only the current token's call may write.
  await endRunningCall(ctx, session.id, END_RECONNECTED);
  // One conditional UPDATE: concurrent resumes cannot pass the cap together.
  const updated = await ctx.db
    .update(interviewSessions)
    // Telemetry: an end recorded for the dropped connection is undone, the interview goes on.
    .set({
      tokenHash: hashToken(token.client_secret.value),
      tokenIssuedAt: sql`now()`,
      resumes: sql`${interviewSessions.resumes} + 1`,
      endedAt: null,
      endReason: null,
      endDetail: null,
    })
    .where(
      and(
        eq(interviewSessions.id, session.id),
        inArray(interviewSessions.status, OPEN_STATUSES),
        isNull(interviewSessions.finishedAt),
        lt(interviewSessions.resumes, MAX_RESUMES),
      ),
    )
    .returning({ resumes: interviewSessions.resumes });
  if (updated.length === 0) {
    const now = await findSession(ctx.db, session.id);
    throw now && now.resumes >= MAX_RESUMES ? new HttpError(429, TOO_MANY_RESUMES) : new HttpError(409, SESSION_ENDED);
  }
  ctx.log.info({ sessionId: session.id, resumes: updated[0]?.resumes }, 'interview session resumed');
  return token;
}
