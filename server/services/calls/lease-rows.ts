/**
 * The lease columns of a session's OpenAI call (calls/leases.ts): taken by the server that opens the
 * call, dropped when the call ends, let go when it is handed over.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context';
import { interviewSessions } from '../../db/schema';

/** A lease not renewed for this long is taken over. */
export const CALL_LEASE_MS = 15_000;

/**
 * A server shutting down listens to its calls until another server claimed them, at most this
 * long: a little more than one look of the others (CALL_LEASE_RENEW_MS in calls/leases.ts).
 */
export const HANDOVER_WAIT_MS = 6_000;

export const leaseEnd = sql`now() + ${CALL_LEASE_MS}::int * interval '1 millisecond'`;

/** The call this process just opened is its own. */
export async function takeLease(ctx: AppContext, sessionId: string, callId: string): Promise<void> {
  await ctx.db
    .update(interviewSessions)
    .set({ callId, callOwner: ctx.instanceId, callLeaseUntil: leaseEnd })
    .where(eq(interviewSessions.id, sessionId));
}

/** The call is over: nobody supervises it any more. */
export async function dropLease(ctx: AppContext, sessionId: string, callId: string): Promise<void> {
  await ctx.db
    .update(interviewSessions)
    .set({ callId: null, callOwner: null, callLeaseUntil: null })
    .where(and(eq(interviewSessions.id, sessionId), eq(interviewSessions.callId, callId), eq(interviewSessions.callOwner, ctx.instanceId)));
}

/** Handed over: the lease is let go now, so the next look of any server takes the call. */
export async function releaseLease(ctx: AppContext, sessionId: string, callId: string): Promise<void> {
  await ctx.db
    .update(interviewSessions)
    .set({ callOwner: null, callLeaseUntil: sql`now()` })
    .where(and(eq(interviewSessions.id, sessionId), eq(interviewSessions.callId, callId), eq(interviewSessions.callOwner, ctx.instanceId)));
}
