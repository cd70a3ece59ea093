/**
 * POST /interview/turn: one interviewer turn for a transport that takes turns (browser speech).
 * The session token proves which session; only its owner may speak in it; an ended session
 * refuses. Each call is reserved on the session before the interviewer (an LLM) is asked, so a
 * session costs at most MAX_TURN_CALLS calls, and the interviewer sees a bounded window (the
 * set's questions are in its instructions, plus the last LLM_TURN_WINDOW lines).
 */
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { TranscriptEntry, TurnResponse } from '../../contract';
import type { AppContext } from '../app-context';
import type { Db } from '../db/client';
import { interviewSessions } from '../db/schema';
import { HttpError } from './http-error';
import { BROWSER_SPEECH_TOKEN_TTL_SECONDS } from '../providers/voice/browser-speech-voice';
import { ProviderError, type InterviewerTurn } from '../providers/types';
import { requireAccount } from './accounts';
import { requireQuestionSet } from './question-sets';
import { addError, llmUsageTally, quietly, recordLlmUsage } from './session-telemetry';
import { hashToken, NOT_YOUR_SESSION, OPEN_STATUSES, TURN_TRANSPORTS, UNKNOWN_SESSION, type InterviewSession } from './sessions';
import { WELCOME_BACK } from '../../domain/interviewer-protocol';
import { settledPartsReader } from '../../domain/line-parts';

export { NOT_YOUR_SESSION, UNKNOWN_SESSION };
export const SESSION_EXPIRED = 'This interview session has expired. Please start a new session.';
export const INTERVIEWER_UNAVAILABLE = 'The interviewer is not available right now. Please try again in a few minutes.';
export const SESSION_FINISHED = 'This interview session has already finished. Please start a new session.';
export const VOICE_KEY_REFUSED = 'A voice-call key cannot be used as an interview session token. Please start a new session.';
export const NOT_A_TURN_SESSION = 'This interview session runs as a live voice call and does not take turns here.';
export const TOO_MANY_TURNS = 'This interview has reached its limit of 40 answers. Please disconnect to get your feedback.';

/** Candidate answers per session; the opening line is one more call. */
export const MAX_CANDIDATE_TURNS = 40;
export const MAX_TURN_CALLS = MAX_CANDIDATE_TURNS + 1;
/** Transcript lines the interviewer is sent besides its instructions. */
export const LLM_TURN_WINDOW = 12;

/** The open turn-taking session this token proves, the caller's own; refuses with the reason. */
export async function sessionOf(ctx: AppContext, accountId: number, sessionToken: string): Promise<InterviewSession> {
  // OpenAI's ephemeral client secrets start with ek_; they open a voice call, never a turn.
  if (sessionToken.startsWith('ek_')) throw new HttpError(403, VOICE_KEY_REFUSED);
  const [session] = await ctx.db
    .select()
    .from(interviewSessions)
    .where(eq(interviewSessions.tokenHash, hashToken(sessionToken)))
    .limit(1);
  if (!session) throw new HttpError(404, UNKNOWN_SESSION);
  if (session.accountId !== accountId) throw new HttpError(403, NOT_YOUR_SESSION);
  if (!TURN_TRANSPORTS.has(session.transport as never)) throw new HttpError(409, NOT_A_TURN_SESSION);
  if (!OPEN_STATUSES.includes(session.status) || session.finishedAt) throw new HttpError(409, SESSION_FINISHED);
  if (Date.now() - session.createdAt.getTime() > BROWSER_SPEECH_TOKEN_TTL_SECONDS * 1000) {
    throw new HttpError(401, SESSION_EXPIRED);
  }
  return session;
}

const stillTakingTurns = (id: string) =>
  and(eq(interviewSessions.id, id), inArray(interviewSessions.status, ['minted', 'live']), isNull(interviewSessions.finishedAt));

/** Takes one of the session's turn calls (and marks it live), or refuses. */
async function reserveTurn(db: Db, session: InterviewSession): Promise<void> {
  const reserved = await db
    .update(interviewSessions)
    .set({ turnCalls: sql`${interviewSessions.turnCalls} + 1`, status: 'live' })
    .where(and(stillTakingTurns(session.id), lt(interviewSessions.turnCalls, MAX_TURN_CALLS)))
    .returning({ id: interviewSessions.id });
  if (reserved.length === 1) return;
  const [now] = await db
    .select({ turnCalls: interviewSessions.turnCalls })
    .from(interviewSessions)
    .where(eq(interviewSessions.id, session.id));
  throw new HttpError(
    now && now.turnCalls >= MAX_TURN_CALLS ? 400 : 409,
    now && now.turnCalls >= MAX_TURN_CALLS ? TOO_MANY_TURNS : SESSION_FINISHED,
  );
}

/**
 * After the interviewer answered or failed: the turn counts every paid completion it made (an
 * unusable reply and its retry included), so the session's turn budget bounds what the model is
 * paid for. The one call reserved up front is settled to `completions`: released when none was made.
 */
async function settleTurn(db: Db, sessionId: string, completions: number): Promise<void> {
  const more = completions - 1;
  if (more === 0) return;
  await db
    .update(interviewSessions)
    .set({ turnCalls: sql`greatest(${interviewSessions.turnCalls} + ${more}::int, 0)` })
    .where(eq(interviewSessions.id, sessionId));
}

export async function nextTurn(
  ctx: AppContext,
  email: string,
  input: { sessionToken: string; utterance?: string; resume?: boolean; input?: AnswerInput },
  /**
   * Told each part of the line to speak as soon as a language model has written it and it can no
   * longer change (a streamed turn: the browser speaks it while the rest is written).
   */
  onPart?: (part: string) => void,
): Promise<TurnResponse> {
  const account = await requireAccount(ctx.db, email);
  const session = await sessionOf(ctx, account.id, input.sessionToken);
  const answer = { text: input.utterance, input: input.input };
  // Each settled part once, in order; true once one was told (a second reply would follow it).
  const onDraft = onPart ? settledPartsReader((parts) => parts.forEach((part) => onPart(part))).read : undefined;
  return input.resume
    ? continuationTurn(ctx, session, answer, undefined, onDraft)
    : takeTurn(ctx, session, answer, undefined, undefined, onDraft);
}

/** How the candidate gave an answer (contract: TurnRequest.input); stored with it. */
export type AnswerInput = NonNullable<TranscriptEntry['input']>;
/** The candidate's answer of a turn: its words (absent for the opening) and, when typed, `input: 'typed'`. */
export interface TurnAnswer {
  text?: string | undefined;
  input?: AnswerInput | undefined;
}

/**
 * docs/product-rules.md, Session lifecycle (Reconnecting): the first turn of a resumed session
 * picks up where the stored transcript stands, so the interview goes on rather than starting over.
 * - nothing asked yet: the opening turn;
 * - the answer that got no reply is sent again: if its reply was stored after all (only the answer
 *   to the browser was lost) that reply is said again, else the interviewer answers it as usual;
 * - no answer pending: the interviewer's last line is said again (the candidate had not answered it).
 * Each is led by "Welcome back." unless it closes the interview.
 */
export async function continuationTurn(
  ctx: AppContext,
  session: InterviewSession,
  answer: TurnAnswer = {},
  /** As in takeTurn: called as soon as the line is known (the speech pipeline starts its voice). */
  onLine?: (turn: TurnResponse) => void,
  /** As in takeTurn; only the opening turn drafts (the others are led by "Welcome back."). */
  onDraft?: (sayFar: string) => boolean,
): Promise<TurnResponse> {
  const turns = session.turns;
  const lastLine = turns.findLast((entry) => entry.role === 'interviewer');
  if (!lastLine) return takeTurn(ctx, session, answer, onLine, undefined, onDraft);
  const utterance = answer.text?.trim();
  const [before, last] = turns.slice(-2);
  if (utterance && last?.role === 'interviewer' && before?.role === 'interviewee' && before.transcript === utterance) {
    const replay: TurnResponse = { say: welcomeBack(last.transcript), closeSession: null };
    onLine?.(replay);
    return replay;
  }
  if (utterance) return takeTurn(ctx, session, answer, onLine, WELCOME_BACK);
  const again: TurnResponse = { say: welcomeBack(lastLine.transcript), closeSession: null };
  await reserveTurn(ctx.db, session);
  onLine?.(again);
  await appendTurns(
    ctx.db,
    session.id,
    [{ role: 'interviewer', transcript: again.say, at: Math.max(0, Date.now() - session.createdAt.getTime()), ...asked(lastLine) }],
    false,
  );
  return again;
}

export { WELCOME_BACK };
/** The question a line asked, as stored with it (TranscriptEntry.askedQuestion), for a line that says it again. */
const asked = (line: { askedQuestion?: number | undefined }) =>
  line.askedQuestion === undefined ? {} : { askedQuestion: line.askedQuestion };
const welcomeBack = (line: string): string => (line.startsWith(WELCOME_BACK) ? line : `${WELCOME_BACK} ${line}`);

/** Appending in SQL keeps turns of overlapping requests; the status check makes an end final. */
async function appendTurns(db: Db, sessionId: string, added: TranscriptEntry[], finished: boolean): Promise<void> {
  const updated = await db
    .update(interviewSessions)
    .set({
      turns: sql`${interviewSessions.turns} || ${JSON.stringify(added)}::jsonb`,
      ...(finished ? { finishedAt: sql`now()` } : {}),
    })
    .where(stillTakingTurns(sessionId))
    .returning({ id: interviewSessions.id });
  if (updated.length === 0) throw new HttpError(409, SESSION_FINISHED);
}

/**
 * One interviewer turn in a session the caller has already proved with `sessionOf` (the speech
 * pipeline proves it before paying for speech-to-text, and does not look it up twice).
 */
export async function takeTurn(
  ctx: AppContext,
  session: InterviewSession,
  answer: TurnAnswer = {},
  /** Called as soon as the interviewer's line is known, before it is stored (speech starts sooner). */
  onLine?: (turn: TurnResponse) => void,
  /** Said before the interviewer's line unless it closes the interview (a resumed session's "Welcome back."). */
  lead?: string,
  /**
   * Told the line as a language model writes it, before it is whole (the speech pipeline speaks its
   * first sentences meanwhile). Not with a `lead`: whether the lead is said is known only at the end.
   */
  onDraft?: (sayFar: string) => boolean,
): Promise<TurnResponse> {
  const set = await requireQuestionSet(ctx.db, session.questionSetId);
  const utterance = answer.text?.trim() ? answer.text.trim() : undefined;
  await reserveTurn(ctx.db, session);

  let turn: InterviewerTurn;
  const llm = llmUsageTally();
  try {
    turn = await ctx.providers.interviewer.nextTurn({
      set,
      history: session.turns.slice(-LLM_TURN_WINDOW),
      utterance,
      meter: llm.meter,
      ...(onDraft && !lead ? { onDraft } : {}),
    });
  } catch (error) {
    await settleTurn(ctx.db, session.id, llm.part?.llmCalls ?? 0);
    await quietly(ctx, 'usage', recordLlmUsage(ctx, session.id, llm));
    // An LLM interviewer's endpoint failed: the candidate gets a plain sentence, the log the details.
    if (error instanceof ProviderError) {
      ctx.log.warn({ status: error.status, upstreamStatus: error.upstreamStatus, err: error }, 'interviewer provider failed');
      await quietly(
        ctx,
        'error',
        addError(ctx.db, session.id, { source: 'interviewer', code: error.upstreamCode, message: error.message }),
      );
      throw new HttpError(error.status, INTERVIEWER_UNAVAILABLE);
    }
    throw error;
  }

  // A scripted interviewer is not metered: its turn is the one reserved.
  await settleTurn(ctx.db, session.id, Math.max(1, llm.part?.llmCalls ?? 0));
  if (lead && turn.say && turn.closeSession === null) turn = { ...turn, say: `${lead} ${turn.say}` };
  // Which question the line asks is the server's record for the rating, not the candidate's answer.
  const reply: TurnResponse = { say: turn.say, closeSession: turn.closeSession };
  onLine?.(reply);
  const at = Math.max(0, Date.now() - session.createdAt.getTime());
  const added: TranscriptEntry[] = [];
  // A typed answer stays typed in the stored transcript (shown after a reload, rated from it).
  if (utterance)
    added.push({ role: 'interviewee', transcript: utterance, at, ...(answer.input === 'typed' ? { input: 'typed' as const } : {}) });
  if (turn.say) added.push({ role: 'interviewer', transcript: turn.say, at, ...asked(turn) });
  await appendTurns(ctx.db, session.id, added, turn.closeSession !== null);
  // After the line is out: the LLM interviewer's tokens, for the session's cost (none for the scripted one).
  await quietly(ctx, 'usage', recordLlmUsage(ctx, session.id, llm));
  return reply;
}
