/**
 * Who supervises each live OpenAI call (docs/decisions/015-interviews-outlive-servers.md): a lease
 * in the session's row (`call_id`, `call_owner`, `call_lease_until`). The server that opened the
 * call owns it and renews the lease every CALL_LEASE_RENEW_MS; a server that stops renewing (killed
 * with SIGKILL, cut off from the database) loses it after CALL_LEASE_MS, and any running server
 * takes it over: one conditional UPDATE claims it, then the sideband is reopened by call id and
 * supervision goes on from the stored transcript. A server shutting down hands its calls over: it
 * lets the lease go and listens on until another server claimed the call (handOverAll), so nothing
 * is missed. Lines spoken while nobody listened (after a kill) are not in the transcript.
 */
import { and, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { TranscriptEntry } from '../../../contract';
import type { AppContext } from '../../app-context';
import { interviewSessions } from '../../db/schema';
import { ProviderError } from '../../providers/types';
import type { RealtimeCallsClient, Sideband } from '../../providers/upstream/realtime-calls-client';
import { findQuestionSet } from '../question-sets';
import { callConfig, supervise, supervisedSessions } from './registry';
import { dropLease, leaseEnd } from './lease-rows';
import { END_SESSION_GONE } from './supervisor';
import { OPEN_STATUSES, type InterviewSession } from '../sessions';

export { CALL_LEASE_MS } from './lease-rows';
/** The owner renews (and every server looks for leases to take over) this often. */
export const CALL_LEASE_RENEW_MS = 5_000;
/** Calls one server takes over per look. */
const TAKEOVER_BATCH = 10;

/**
 * One look: renews this process's leases (a call whose lease another server holds now is let go
 * here without hanging up), then takes over calls whose lease ran out. Returns the sessions taken.
 */
export async function tendCallLeases(ctx: AppContext): Promise<string[]> {
  const calls = ctx.providers.realtime;
  if (!calls) return [];
  const mine = supervisedSessions(ctx);
  if (mine.size > 0) {
    const renewed = await ctx.db
      .update(interviewSessions)
      .set({ callLeaseUntil: leaseEnd })
      .where(
        and(
          inArray(interviewSessions.id, [...mine.keys()]),
          eq(interviewSessions.callOwner, ctx.instanceId),
          inArray(interviewSessions.status, OPEN_STATUSES),
        ),
      )
      .returning({ id: interviewSessions.id });
    const kept = new Set(renewed.map((row) => row.id));
    for (const [sessionId, supervisor] of [...mine]) {
      if (kept.has(sessionId)) continue;
      const [row] = await ctx.db
        .select({ status: interviewSessions.status, callId: interviewSessions.callId })
        .from(interviewSessions)
        .where(eq(interviewSessions.id, sessionId));
      if (row && OPEN_STATUSES.includes(row.status) && row.callId === supervisor.callId) {
        ctx.log.warn({ sessionId }, 'another server holds this call now; stopped supervising it here');
        await supervisor.detach();
      } else {
        // Rated or ended elsewhere, or its session went on in another call (a resume): this call is over.
        await supervisor.end(END_SESSION_GONE);
      }
    }
  }
  // A draining server keeps its own calls until it hands them over, and takes no others.
  if (ctx.lifecycle.state !== 'running') return [];
  const due = ctx.db
    .select({ id: interviewSessions.id })
    .from(interviewSessions)
    .where(
      and(
        isNotNull(interviewSessions.callId),
        lt(interviewSessions.callLeaseUntil, sql`now()`),
        inArray(interviewSessions.status, OPEN_STATUSES),
      ),
    )
    .limit(TAKEOVER_BATCH);
  const claimed = await ctx.db
    .update(interviewSessions)
    .set({ callOwner: ctx.instanceId, callLeaseUntil: leaseEnd })
    // Checked again under the row lock: two servers looking at once take each call once.
    .where(
      and(
        inArray(interviewSessions.id, due),
        isNotNull(interviewSessions.callId),
        lt(interviewSessions.callLeaseUntil, sql`now()`),
        inArray(interviewSessions.status, OPEN_STATUSES),
      ),
    )
    .returning();
  const taken: string[] = [];
  for (const session of claimed) {
    if (await takeOver(ctx, session)) taken.push(session.id);
  }
  return taken;
}

/** Reopens a claimed call's sideband and supervises it here; false when the call is gone (its lease is dropped). */
async function takeOver(ctx: AppContext, session: InterviewSession): Promise<boolean> {
  const calls = ctx.providers.realtime;
  const callId = session.callId;
  if (!calls || !callId) return false;
  const log = ctx.log.child({ sessionId: session.id, callId });
  const set = await findQuestionSet(ctx.db, session.questionSetId);
  if (!set || mineAlready(ctx, session.id)) return false;
  try {
    const sideband = await openSidebandPatiently(calls, callId);
    // The call goes on from every line stored; its interviewer config is the one it was opened with.
    supervise(ctx, session, callId, sideband, callConfig(ctx, set, linesWhenOpened(session)), log);
    log.info({ lines: session.turns.length }, 'realtime call taken over');
    return true;
  } catch (error) {
    // The call ended at the provider (or cannot be reached): nobody supervises it; what was stored stays.
    log.warn({ err: error instanceof ProviderError ? error.message : String(error) }, 'could not take the realtime call over');
    await dropLease(ctx, session.id, callId);
    return false;
  }
}

/**
 * The lines a call was bound with when it was opened (callConfig): none for the interview's first
 * call, those said before the resume for a continuation call. Restoring the session after an
 * outside session.update must put back that config, not a continuation written now.
 */
export function linesWhenOpened(session: InterviewSession): TranscriptEntry[] {
  if (session.resumes === 0) return [];
  const resumedAt = (session.tokenIssuedAt ?? session.createdAt).getTime() - session.createdAt.getTime();
  return session.turns.filter((line) => (line.at ?? 0) <= resumedAt);
}

/** Tries to reopen a call's sideband this often before the call counts as gone. */
const SIDEBAND_TRIES = 3;
const SIDEBAND_RETRY_MS = 500;

/**
 * A call handed over is claimed while the server letting go still listens (handOverAll); if the
 * provider takes one sideband per call at a time, the first try can meet that one, which closes
 * within moments of the claim. So a refusal is tried again before the call counts as gone.
 */
async function openSidebandPatiently(calls: RealtimeCallsClient, callId: string): Promise<Sideband> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await calls.openSideband(callId);
    } catch (error) {
      if (attempt >= SIDEBAND_TRIES || !(error instanceof ProviderError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, SIDEBAND_RETRY_MS));
    }
  }
}

const mineAlready = (ctx: AppContext, sessionId: string): boolean => supervisedSessions(ctx).has(sessionId);

/** Tends the leases every CALL_LEASE_RENEW_MS while the server runs (OpenAI voice mode only). */
export function startCallLeases(ctx: AppContext): { stop(): Promise<void> } {
  if (!ctx.providers.realtime) return { stop: async () => undefined };
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const look = () => {
    running = running
      .then(() => tendCallLeases(ctx))
      .catch((error: unknown) => ctx.log.error({ err: error }, 'tending the call leases failed'));
  };
  look();
  const timer = setInterval(() => {
    if (!stopped) look();
  }, CALL_LEASE_RENEW_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
