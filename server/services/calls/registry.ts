/**
 * POST /interview/sessions/{id}/sdp: the browser's SDP offer for an OpenAI voice session. The
 * session token (minted with the session, sha256 stored) proves the session; the server opens the
 * call with its own key and the session it builds, attaches the sideband before the browser gets
 * its answer (so nothing said is missed), and supervises the call (calls/supervisor.ts) until it ends.
 * A call that cannot start gives the credit back, as a failed mint did.
 * Calls live in this process; ratings ask `settleRealtimeCall` first, so they rate the server's
 * transcript with everything heard.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RealtimeSessionCreateRequest } from 'openai/resources/realtime/realtime';
import type { TranscriptEntry } from '../../../contract';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/client';
import { interviewSessions, type QuestionSetRecord } from '../../db/schema';
import type { Sideband } from '../../providers/upstream/realtime-calls-client';
import { HttpError } from '../http-error';
import { SESSION_TOKEN_TTL_SECONDS } from '../../providers/voice/openai-realtime-voice';
import { PROVIDER_TEXTS } from '../../providers/upstream/realtime-calls-client';
import { continuationInstructions, resumePoint } from '../../providers/interviewer/continuation-instructions';
import { buildRealtimeSession } from '../../providers/voice/realtime-session-config';
import { ProviderError } from '../../providers/types';
import { requireQuestionSet } from '../question-sets';
import { addError, addUsage, quietly, recordConnected, recordEnd } from '../session-telemetry';
import { CallSupervisor, END_HANDED_OVER, END_SESSION_GONE, END_SUBMITTED, type CallLog, type CallTelemetry } from './supervisor';
import { dropLease, HANDOVER_WAIT_MS, releaseLease, takeLease } from './lease-rows';
import {
  abandonWithRefund,
  findSession,
  hashToken,
  markLive,
  OPEN_STATUSES,
  SESSION_ENDED,
  UNKNOWN_SESSION,
  type InterviewSession,
} from '../sessions';

export const TOKEN_REFUSED = 'This voice session token is not valid for this interview session. Please start a new session.';
export const TOKEN_EXPIRED = 'This voice session token has expired. Please start a new session.';
export const NOT_A_VOICE_CALL_SESSION = 'This interview session does not run as a live voice call.';
export const CALL_RUNNING = 'This interview session already has a voice call.';
export const EMPTY_OFFER = 'The request body must be an SDP offer (Content-Type: application/sdp).';

function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  return match?.[1] ?? null;
}

/** The open OpenAI-voice session this token proves, or the refusal. */
async function sessionForCall(ctx: AppContext, sessionId: string, authorization: string | undefined): Promise<InterviewSession> {
  const token = bearerToken(authorization);
  const session = await findSession(ctx.db, sessionId);
  if (!session) throw new HttpError(404, UNKNOWN_SESSION);
  if (!token || session.tokenHash === null || session.tokenHash !== hashToken(token)) throw new HttpError(401, TOKEN_REFUSED);
  if (session.transport !== 'openai-realtime') throw new HttpError(409, NOT_A_VOICE_CALL_SESSION);
  if (!OPEN_STATUSES.includes(session.status) || session.finishedAt) throw new HttpError(409, SESSION_ENDED);
  const issuedAt = (session.tokenIssuedAt ?? session.createdAt).getTime();
  if (Date.now() - issuedAt > SESSION_TOKEN_TTL_SECONDS * 1000) throw new HttpError(401, TOKEN_EXPIRED);
  if (ctx.callRegistry.has(session.id)) throw new HttpError(409, CALL_RUNNING);
  return session;
}

/**
 * One call per session token, claimed by one conditional UPDATE before anything is paid for
 * upstream, so it holds across server processes on one database: concurrent offers with the same
 * token get one call, the rest 409. A resume issues a new token, whose call may then be claimed.
 */
async function claimCall(db: Db, session: InterviewSession): Promise<void> {
  const tokenHash = session.tokenHash ?? '';
  const claimed = await db
    .update(interviewSessions)
    .set({ callTokenHash: tokenHash })
    .where(
      and(
        eq(interviewSessions.id, session.id),
        eq(interviewSessions.tokenHash, tokenHash),
        sql`${interviewSessions.callTokenHash} is distinct from ${tokenHash}`,
        inArray(interviewSessions.status, OPEN_STATUSES),
        isNull(interviewSessions.finishedAt),
      ),
    )
    .returning({ id: interviewSessions.id });
  if (claimed.length === 1) return;
  const now = await findSession(db, session.id);
  if (!now || now.tokenHash !== tokenHash) throw new HttpError(401, TOKEN_REFUSED);
  if (!OPEN_STATUSES.includes(now.status) || now.finishedAt) throw new HttpError(409, SESSION_ENDED);
  throw new HttpError(409, CALL_RUNNING);
}

/** How often a call checks that its session is still open and its token still current (another process may have ended it). */
export const CALL_CHECK_MS = 5000;

/** The session's row while it is open and this call's token is still its current one. */
function stillCurrent(session: InterviewSession) {
  return and(
    eq(interviewSessions.id, session.id),
    inArray(interviewSessions.status, OPEN_STATUSES),
    session.tokenHash === null ? undefined : eq(interviewSessions.tokenHash, session.tokenHash),
  );
}

/** The session is still open, and this call's token is still its current one. */
async function callStillWanted(db: Db, session: InterviewSession): Promise<boolean> {
  const [row] = await db.select({ id: interviewSessions.id }).from(interviewSessions).where(stillCurrent(session)).limit(1);
  return row !== undefined;
}

/**
 * A call that could not start: the credit goes back (within the daily refunds), the candidate gets
 * the sentence. A continuation call (after a resume) keeps its session open instead: what was said
 * is still rated, and Reconnect may try again (docs/product-rules.md, Session lifecycle).
 */
async function failedStart(ctx: AppContext, session: InterviewSession, error: ProviderError): Promise<never> {
  const upstream = error.upstreamCode === null ? '' : ` (upstream ${error.upstreamCode})`;
  if (session.resumes > 0) {
    await quietly(ctx, 'error', addError(ctx.db, session.id, { source: 'realtime', code: error.upstreamCode, message: error.message }));
    ctx.log.warn(
      { sessionId: session.id, status: error.status, upstreamStatus: error.upstreamStatus },
      'realtime continuation call could not start; the session stays open',
    );
    throw new HttpError(error.status, error.message);
  }
  await abandonWithRefund(ctx.db, session, 'end', { reason: 'failed-start', detail: `${error.message}${upstream}` });
  ctx.log.warn(
    { sessionId: session.id, status: error.status, upstreamStatus: error.upstreamStatus },
    'realtime call could not start; credit returned',
  );
  throw new HttpError(error.status, error.message);
}

export async function openRealtimeCall(
  ctx: AppContext,
  sessionId: string,
  authorization: string | undefined,
  offer: string,
): Promise<string> {
  const calls = ctx.providers.realtime;
  if (!calls) throw new HttpError(503, PROVIDER_TEXTS.noKey);
  if (!offer.trim().startsWith('v=')) throw new HttpError(400, EMPTY_OFFER);
  const session = await sessionForCall(ctx, sessionId, authorization);
  const set = await requireQuestionSet(ctx.db, session.questionSetId);
  await claimCall(ctx.db, session);
  const config = callConfig(ctx, set, session.turns);

  let opened: { callId: string; answer: string };
  try {
    opened = await calls.create(offer, config, { sessionId: session.id });
  } catch (error) {
    if (error instanceof ProviderError) return failedStart(ctx, session, error);
    throw error;
  }
  let sideband;
  try {
    sideband = await calls.openSideband(opened.callId);
  } catch (error) {
    await calls.hangup(opened.callId);
    if (error instanceof ProviderError) return failedStart(ctx, session, error);
    throw error;
  }

  const log = ctx.log.child({ sessionId: session.id, callId: opened.callId });
  // The lease first: this process supervises the call; another server takes it over if it stops
  // renewing (calls/leases.ts). A look of this process's lease loop that saw the call supervised
  // here before its lease was taken would let it go as gone (and hang it up).
  await takeLease(ctx, session.id, opened.callId);
  const supervisor = supervise(ctx, session, opened.callId, sideband, config, log);
  // The session may have been rated or abandoned while OpenAI answered the offer.
  if (!(await callStillWanted(ctx.db, session))) {
    await supervisor.end(END_SESSION_GONE);
    throw new HttpError(409, SESSION_ENDED);
  }
  await markLive(ctx.db, session.id);
  // Telemetry: connected when the SDP answer goes back (a continuation call keeps the first time).
  await quietly(ctx, 'connected', recordConnected(ctx.db, session.id));
  log.info({ model: config.model }, 'realtime call started');
  return opened.answer;
}

/**
 * Supervises a call in this process: the call this process opened, or one another server stopped
 * renewing (calls/leases.ts), whose sideband was reopened by call id. In ctx.callRegistry until it
 * ends (or is handed over).
 */
export function supervise(
  ctx: AppContext,
  session: InterviewSession,
  callId: string,
  sideband: Sideband,
  config: RealtimeSessionCreateRequest,
  log: CallLog,
): CallSupervisor {
  const calls = ctx.providers.realtime;
  // Rated, abandoned, expired or resumed through another server process: this call is hung up.
  const check = setInterval(() => {
    void callStillWanted(ctx.db, session)
      .then((wanted) => (wanted ? undefined : supervisor.end(END_SESSION_GONE)))
      .catch(() => undefined);
  }, CALL_CHECK_MS);
  check.unref();
  const registry = ctx.callRegistry;
  const startedAt = session.createdAt.getTime();
  const supervisor: CallSupervisor = new CallSupervisor({
    sideband,
    callId,
    hangup: () => calls?.hangup(callId) ?? Promise.resolve(),
    saveTranscript: (entries) => saveTranscript(ctx.db, session, entries),
    log,
    schedule: (fn, ms) => {
      const timer = setTimeout(fn, ms);
      timer.unref();
      return () => clearTimeout(timer);
    },
    elapsed: () => Math.max(0, Date.now() - startedAt),
    session: config,
    transcript: session.turns,
    maxDurationMs: Math.max(0, ctx.config.maxSessionMinutes * 60_000 - (Date.now() - startedAt)),
    onEnded: (reason) => {
      clearInterval(check);
      if (registry.get(session.id) === supervisor) registry.delete(session.id);
      // Ended: the call is over. Handed over: the lease stays for handOverAll to let go (or is another server's already).
      if (reason !== END_HANDED_OVER) void quietly(ctx, 'lease', dropLease(ctx, session.id, callId));
    },
    saveTelemetry: (update) =>
      saveCallTelemetry(ctx, session, update, {
        realtimeModel: ctx.config.realtimeModel,
        transcriptionModel: ctx.config.realtimeTranscriptionModel,
      }),
  });
  registry.set(session.id, supervisor);
  return supervisor;
}

/** The session config a call was bound to, as built for its set and the transcript it started with. */
export function callConfig(ctx: AppContext, set: QuestionSetRecord, turns: TranscriptEntry[]): RealtimeSessionCreateRequest {
  return buildRealtimeSession(set, {
    model: ctx.config.realtimeModel,
    transcriptionModel: ctx.config.realtimeTranscriptionModel,
    noiseReduction: ctx.config.realtimeNoiseReduction,
    // A continuation call (after a dropped connection) carries what was said and where to go on.
    ...(turns.length > 0 ? { continuation: continuationInstructions(turns, resumePoint(set.questions, turns)) } : {}),
  });
}

/**
 * A call's usage, errors and end into the session's telemetry. Its end counts only while its token
 * is the session's current one: after a resume the old call's end is not the interview's.
 */
async function saveCallTelemetry(
  ctx: AppContext,
  session: InterviewSession,
  update: CallTelemetry,
  models: { realtimeModel: string; transcriptionModel: string },
): Promise<void> {
  if (update.usage) {
    const usage = update.usage.responses
      ? { ...update.usage, realtimeModel: models.realtimeModel }
      : { ...update.usage, transcriptionModel: models.transcriptionModel };
    await quietly(ctx, 'usage', addUsage(ctx, session.id, usage));
  }
  if (update.error) await quietly(ctx, 'error', addError(ctx.db, session.id, update.error));
  if (update.end) {
    const current = session.tokenHash === null ? undefined : eq(interviewSessions.tokenHash, session.tokenHash);
    await quietly(ctx, 'end', recordEnd(ctx.db, session.id, update.end, current));
  }
}

/** A dropped call's session is reconnected: its running call (if any) is hung up first. */
export async function endRunningCall(ctx: AppContext, sessionId: string, reason: string): Promise<void> {
  await ctx.callRegistry.get(sessionId)?.end(reason);
}

/**
 * Only the call of the session's current token may write: after a resume handled by another server
 * process (which cannot hang this call up), this call's late lines must not mix into the
 * continuation's (docs/product-rules.md, Reconnecting). Each save merges the call's transcript into
 * the stored one (mergeTranscripts), under the row lock: while a call is handed over, the server
 * letting go and the one taking over both store what they heard, and neither overwrites the other.
 */
async function saveTranscript(db: Db, session: InterviewSession, entries: TranscriptEntry[]): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ turns: interviewSessions.turns }).from(interviewSessions).where(stillCurrent(session)).for('update');
    if (!row) return;
    await tx
      .update(interviewSessions)
      .set({ turns: mergeTranscripts(row.turns, entries) })
      .where(eq(interviewSessions.id, session.id));
  });
}

/** Two servers that heard the same line note its time apart by less than this. */
const SAME_LINE_MS = 2_000;

/**
 * The call's lines, plus every stored line it does not have (one another server heard while the
 * call was handed over), in time order. A stored line is the call's own when role and words match
 * and its time is within SAME_LINE_MS; each line is matched once.
 */
export function mergeTranscripts(stored: TranscriptEntry[], mine: TranscriptEntry[]): TranscriptEntry[] {
  const used = new Set<number>();
  const extra = stored.filter((line) => {
    const match = mine.findIndex(
      (own, index) =>
        !used.has(index) &&
        own.role === line.role &&
        own.transcript === line.transcript &&
        Math.abs((own.at ?? 0) - (line.at ?? 0)) <= SAME_LINE_MS,
    );
    if (match < 0) return true;
    used.add(match);
    return false;
  });
  if (extra.length === 0) return mine;
  // A stable sort: lines with the same time keep the call's order, then the stored one's.
  return [...mine, ...extra].sort((x, y) => (x.at ?? 0) - (y.at ?? 0));
}

/**
 * Before a realtime session is rated: its call (if this process runs it) is hung up and every line
 * heard is stored. Answers the session as stored now.
 */
export async function settleRealtimeCall(ctx: AppContext, session: InterviewSession): Promise<InterviewSession> {
  const supervisor = ctx.callRegistry.get(session.id);
  if (supervisor) await supervisor.end(END_SUBMITTED);
  return (await findSession(ctx.db, session.id)) ?? session;
}

/** How often a server handing its calls over looks whether another one claimed them. */
const CLAIM_POLL_MS = 50;

/**
 * Server shutdown: every call of this process is handed over, not hung up. Its lease is let go
 * first while this process still listens, until another running server has claimed the call (its
 * next look, within CALL_LEASE_RENEW_MS) or `waitMs` passed; only then is the sideband closed, so
 * no line is missed in between (both store what they hear, merged). With no other server running,
 * the next one to start reopens the sideband by call id (docs/decisions/015-interviews-outlive-servers.md).
 */
export async function handOverAll(ctx: AppContext, waitMs = HANDOVER_WAIT_MS, pollMs = CLAIM_POLL_MS): Promise<void> {
  const calls = [...ctx.callRegistry];
  if (calls.length === 0) return;
  await Promise.all(calls.map(([sessionId, call]) => quietly(ctx, 'lease', releaseLease(ctx, sessionId, call.callId))));
  await claimedElsewhere(
    ctx,
    calls.map(([sessionId, call]) => ({ sessionId, callId: call.callId })),
    waitMs,
    pollMs,
  );
  await Promise.all(calls.map(([, call]) => call.detach()));
}

/** Until every call is claimed by another server (or over, or gone on in another call), at most `waitMs`. */
async function claimedElsewhere(
  ctx: AppContext,
  calls: Array<{ sessionId: string; callId: string }>,
  waitMs: number,
  pollMs: number,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  const waiting = new Map(calls.map((c) => [c.sessionId, c.callId]));
  while (waiting.size > 0 && Date.now() < deadline) {
    try {
      const rows = await ctx.db
        .select({
          id: interviewSessions.id,
          callId: interviewSessions.callId,
          callOwner: interviewSessions.callOwner,
          status: interviewSessions.status,
        })
        .from(interviewSessions)
        .where(inArray(interviewSessions.id, [...waiting.keys()]));
      for (const row of rows) {
        const over = !OPEN_STATUSES.includes(row.status) || row.callId !== waiting.get(row.id);
        if (over || (row.callOwner !== null && row.callOwner !== ctx.instanceId)) waiting.delete(row.id);
      }
      for (const id of [...waiting.keys()]) if (!rows.some((row) => row.id === id)) waiting.delete(id);
    } catch (error) {
      ctx.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not look whether the calls were taken over');
      return;
    }
    if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
  }
}

/** The sessions whose calls this process supervises now (calls/leases.ts renews their leases). */
export function supervisedSessions(ctx: Pick<AppContext, 'callRegistry'>): Map<string, CallSupervisor> {
  return ctx.callRegistry;
}

/** The supervisor of a session's call, when this process runs it. */
export function runningCall(ctx: Pick<AppContext, 'callRegistry'>, sessionId: string): CallSupervisor | undefined {
  return ctx.callRegistry.get(sessionId);
}
