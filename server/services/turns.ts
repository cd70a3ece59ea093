/**
 * Browser-speech mode: one interviewer turn. The session token proves which session; only its
 * owner may speak in it; a finished session refuses. Turns are kept in interview_sessions.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { TranscriptEntry, TurnResponse } from '../../contract';
import type { AppContext } from '../app-context';
import { interviewSessions } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { BROWSER_SPEECH_TOKEN_TTL_SECONDS } from '../providers/browser-speech-voice';
import { requireAccount } from './accounts';
import { requireQuestionSet } from './question-sets';
import { ProviderError } from '../providers/types';
import { hashToken } from './tokens';

export const UNKNOWN_SESSION = 'This interview session is not known. Please start a new session.';
export const NOT_YOUR_SESSION = 'This interview session belongs to another user.';
export const SESSION_EXPIRED = 'This interview session has expired. Please start a new session.';
export const INTERVIEWER_UNAVAILABLE = 'The interviewer is not available right now. Please try again in a few minutes.';
export const SESSION_FINISHED = 'This interview session has already finished. Please start a new session.';

export async function nextTurn(
  ctx: AppContext,
  email: string,
  input: { sessionToken: string; utterance?: string },
): Promise<TurnResponse> {
  const account = await requireAccount(ctx.db, email);
  const [session] = await ctx.db
    .select()
    .from(interviewSessions)
    .where(eq(interviewSessions.tokenHash, hashToken(input.sessionToken)))
    .limit(1);
  if (!session) throw new HttpError(404, UNKNOWN_SESSION);
  if (session.accountId !== account.id) throw new HttpError(403, NOT_YOUR_SESSION);
  if (session.status === 'finished') throw new HttpError(409, SESSION_FINISHED);
  if (Date.now() - session.createdAt.getTime() > BROWSER_SPEECH_TOKEN_TTL_SECONDS * 1000) {
    throw new HttpError(401, SESSION_EXPIRED);
  }

  const set = await requireQuestionSet(ctx.db, session.questionSetId);
  const history = session.turns;
  const utterance = input.utterance?.trim() ? input.utterance.trim() : undefined;
  let turn: TurnResponse;
  try {
    turn = await ctx.providers.interviewer.nextTurn({ set, history, utterance });
  } catch (error) {
    // An LLM interviewer's endpoint failed: the candidate gets a plain sentence, the log the details.
    if (error instanceof ProviderError) {
      ctx.log.warn({ status: error.status, upstreamStatus: error.upstreamStatus, err: error }, 'interviewer provider failed');
      throw new HttpError(error.status, INTERVIEWER_UNAVAILABLE);
    }
    throw error;
  }

  const at = Math.max(0, Date.now() - session.createdAt.getTime());
  const added: TranscriptEntry[] = [];
  if (utterance) added.push({ role: 'interviewee', transcript: utterance, at });
  if (turn.say) added.push({ role: 'interviewer', transcript: turn.say, at });
  const finished = turn.closeSession !== null;

  // Appending in SQL keeps turns of overlapping requests; the status check makes a finish final.
  const updated = await ctx.db
    .update(interviewSessions)
    .set({
      turns: sql`${interviewSessions.turns} || ${JSON.stringify(added)}::jsonb`,
      ...(finished ? { status: 'finished' as const, finishedAt: sql`now()` } : {}),
    })
    .where(and(eq(interviewSessions.id, session.id), eq(interviewSessions.status, 'active')))
    .returning({ id: interviewSessions.id });
  if (updated.length === 0) throw new HttpError(409, SESSION_FINISHED);
  return turn;
}
