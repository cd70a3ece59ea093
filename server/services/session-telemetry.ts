/**
 * Session telemetry (docs/product-rules.md, Session telemetry; docs/decisions/012-session-telemetry.md):
 * when a session connected and ended and why, its usage and estimated cost, and the upstream errors
 * it met. Each write is one conditional UPDATE, so parts recorded at the same time (a realtime
 * call's sideband, overlapping speech turns, the browser's reports) add up instead of overwriting.
 */
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type {
  SessionEndReason,
  SessionError,
  SessionInput,
  SessionReport,
  SessionReportResponse,
  SessionTelemetry,
  SessionUsage,
} from '../../contract';
import type { AppContext } from '../app-context';
import type { Db } from '../db/client';
import { interviewSessions } from '../db/schema';
import type { LlmUsageMeter } from '../providers/types';
import { requireAccount } from './accounts';
import { HttpError } from './http-error';
import { estimateCost } from './session-cost';
import { findSession, NOT_YOUR_SESSION, OPEN_STATUSES, UNKNOWN_SESSION, type InterviewSession } from './sessions';

/** Errors kept per session (the count goes on). */
export const MAX_SESSION_ERRORS = 20;
/** A browser's "connected" counts only this long after minting (a start takes seconds, not minutes). */
export const CONNECT_REPORT_WINDOW_MS = 2 * 60 * 1000;
const MAX_DETAIL = 300;
const MAX_ERROR_MESSAGE = 300;

export interface SessionEnd {
  reason: SessionEndReason;
  detail?: string | null;
}

/** One line, no control characters, bounded: what the admin dialog shows. */
export function cleanText(text: string, max: number): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, max)
  );
}

/** The first end wins; `where` narrows it (e.g. only while a realtime call's token is current). */
export async function recordEnd(db: Db, sessionId: string, end: SessionEnd, where?: SQL): Promise<boolean> {
  const rows = await db
    .update(interviewSessions)
    .set({ endedAt: sql`now()`, endReason: end.reason, endDetail: end.detail ? cleanText(end.detail, MAX_DETAIL) : null })
    .where(and(eq(interviewSessions.id, sessionId), isNull(interviewSessions.endedAt), where))
    .returning({ id: interviewSessions.id });
  return rows.length === 1;
}

/** How the candidate answered, as the rated answers show it (ratings.ts); corrects the browser's guess at connect time. */
export async function recordInput(db: Db, sessionId: string, input: SessionInput): Promise<void> {
  await db.update(interviewSessions).set({ input }).where(eq(interviewSessions.id, sessionId));
}

/** The connection is up: the first time counts (a resumed call keeps the first connect time). */
export async function recordConnected(db: Db, sessionId: string, input?: SessionInput): Promise<boolean> {
  const rows = await db
    .update(interviewSessions)
    .set({ connectedAt: sql`now()`, ...(input ? { input } : {}) })
    .where(
      and(
        eq(interviewSessions.id, sessionId),
        isNull(interviewSessions.connectedAt),
        isNull(interviewSessions.endedAt),
        inArray(interviewSessions.status, OPEN_STATUSES),
        // Clamped by the server's clock: a report long after minting is not a connect time.
        sql`${interviewSessions.createdAt} > now() - ${CONNECT_REPORT_WINDOW_MS}::int * interval '1 millisecond'`,
      ),
    )
    .returning({ id: interviewSessions.id });
  return rows.length === 1;
}

const NUMERIC_USAGE_KEYS = [
  'responses',
  'textInTokens',
  'cachedTextInTokens',
  'audioInTokens',
  'cachedAudioInTokens',
  'textOutTokens',
  'audioOutTokens',
  'transcribedSeconds',
  'transcriptionAudioTokens',
  'transcriptionTextTokens',
  'synthesisedCharacters',
  'llmCalls',
  'raterCalls',
  'llmInTokens',
  'llmCachedInTokens',
  'llmOutTokens',
] as const satisfies ReadonlyArray<keyof SessionUsage>;
const MODEL_KEYS = ['realtimeModel', 'transcriptionModel', 'speechModel', 'llmModel'] as const satisfies ReadonlyArray<keyof SessionUsage>;

/**
 * Adds one part of a session's usage (one response, one transcription, one synthesised line) and
 * its estimated cost, in one statement: each counter is summed in SQL.
 */
export async function addUsage(ctx: Pick<AppContext, 'db' | 'config'>, sessionId: string, part: SessionUsage): Promise<void> {
  let merged = sql`${interviewSessions.usage}`;
  let changed = false;
  for (const key of NUMERIC_USAGE_KEYS) {
    const value = part[key];
    if (value === undefined || !Number.isFinite(value) || value <= 0) continue;
    changed = true;
    merged = sql`${merged} || jsonb_build_object(${key}::text, coalesce((${interviewSessions.usage} ->> ${key}::text)::numeric, 0) + ${value}::numeric)`;
  }
  if (!changed) return;
  for (const key of MODEL_KEYS) {
    const model = part[key];
    if (model) merged = sql`${merged} || jsonb_build_object(${key}::text, ${model}::text)`;
  }
  const cost = estimateCost(part, ctx.config.modelPrices);
  await ctx.db
    .update(interviewSessions)
    .set({
      usage: merged,
      ...(cost === null ? {} : { estimatedCostUsd: sql`coalesce(${interviewSessions.estimatedCostUsd}, 0) + ${cost}::float8` }),
    })
    .where(eq(interviewSessions.id, sessionId));
}

/** The language-model calls of one interviewer turn or one rating, summed as they are made. */
export interface LlmUsageTally {
  meter: LlmUsageMeter;
  readonly part: SessionUsage | null;
}

/** `rater`: the calls are the AI rater's, so they are counted as `raterCalls` too. */
export function llmUsageTally(options: { rater?: boolean } = {}): LlmUsageTally {
  let part: SessionUsage | null = null;
  return {
    meter: (usage) => {
      part = {
        llmModel: usage.model,
        llmCalls: (part?.llmCalls ?? 0) + 1,
        ...(options.rater ? { raterCalls: (part?.raterCalls ?? 0) + 1 } : {}),
        llmInTokens: (part?.llmInTokens ?? 0) + usage.inputTokens,
        llmCachedInTokens: (part?.llmCachedInTokens ?? 0) + usage.cachedInputTokens,
        llmOutTokens: (part?.llmOutTokens ?? 0) + usage.outputTokens,
      };
    },
    get part() {
      return part;
    },
  };
}

/** Adds a turn's or a rating's language-model usage (and its estimated cost) to the session: one UPDATE, none without calls. */
export async function recordLlmUsage(ctx: Pick<AppContext, 'db' | 'config'>, sessionId: string, tally: LlmUsageTally): Promise<void> {
  if (tally.part) await addUsage(ctx, sessionId, tally.part);
}

/** Keeps an upstream error for the admin (the first MAX_SESSION_ERRORS; all are counted). */
export async function addError(db: Db, sessionId: string, error: { source: string; code?: string | null; message: string }): Promise<void> {
  const entry: SessionError = {
    at: new Date().toISOString(),
    source: error.source,
    code: error.code ? cleanText(error.code, 80) : null,
    message: cleanText(error.message, MAX_ERROR_MESSAGE),
  };
  await db
    .update(interviewSessions)
    .set({
      errors: sql`case when jsonb_array_length(${interviewSessions.errors}) < ${MAX_SESSION_ERRORS}::int
        then ${interviewSessions.errors} || ${JSON.stringify([entry])}::jsonb else ${interviewSessions.errors} end`,
      errorCount: sql`${interviewSessions.errorCount} + 1`,
    })
    .where(eq(interviewSessions.id, sessionId));
}

/** Telemetry must never break an interview: a failed write is logged and the call goes on. */
export function quietly(ctx: Pick<AppContext, 'log'>, what: string, write: Promise<unknown>): Promise<void> {
  return write.then(
    () => undefined,
    (error: unknown) =>
      ctx.log.warn({ err: error instanceof Error ? error.message : String(error) }, `could not record session telemetry (${what})`),
  );
}

/**
 * POST /interview/sessions/{id}/report: the browser says its transport is up, or why the session
 * ended. Only the session's owner, only while it is open; the server's clock sets every time.
 */
export async function reportSession(
  ctx: AppContext,
  email: string,
  sessionId: string,
  report: SessionReport,
): Promise<SessionReportResponse> {
  const account = await requireAccount(ctx.db, email);
  const session = await findSession(ctx.db, sessionId);
  if (!session) throw new HttpError(404, UNKNOWN_SESSION);
  if (session.accountId !== account.id) throw new HttpError(403, NOT_YOUR_SESSION);
  const answer = (recorded: boolean): SessionReportResponse => ({ sessionId: session.id, recorded });
  if (!OPEN_STATUSES.includes(session.status)) return answer(false);
  if (report.event === 'connected') {
    // An OpenAI call's connect time is the server's own (the SDP answer it sent back).
    if (session.transport === 'openai-realtime') return answer(false);
    return answer(await recordConnected(ctx.db, session.id, report.input));
  }
  // An OpenAI call's close is heard on the sideband, with the interviewer's reason: the server's record is the better one.
  if (report.reason === 'closed-by-interviewer' && session.transport === 'openai-realtime') return answer(false);
  return answer(await recordEnd(ctx.db, session.id, { reason: report.reason, detail: report.detail ?? null }));
}

function candidateTurns(session: InterviewSession): number {
  return session.turns.filter((entry) => entry.role === 'interviewee').length;
}

export function toTelemetry(session: InterviewSession): SessionTelemetry {
  const started = session.createdAt.getTime();
  const connected = session.connectedAt?.getTime() ?? null;
  const ended = session.endedAt?.getTime() ?? null;
  return {
    sessionId: session.id,
    transport: session.transport,
    input: session.input,
    status: session.status,
    startedAt: session.createdAt.toISOString(),
    connectedAt: session.connectedAt?.toISOString() ?? null,
    endedAt: session.endedAt?.toISOString() ?? null,
    connectMs: connected === null ? null : Math.max(0, connected - started),
    lengthSeconds: connected === null || ended === null ? null : Math.max(0, Math.round((ended - connected) / 1000)),
    endReason: session.endReason,
    endDetail: session.endDetail,
    candidateTurns: candidateTurns(session),
    resumes: session.resumes,
    usage: session.usage,
    estimatedCostUsd: session.estimatedCostUsd,
    errorCount: session.errorCount,
    errors: session.errors,
  };
}
