/**
 * Who rates a stored transcript (issue 33; ARCHITECTURE.md, several servers): a lease in the
 * event's `next_rating_at`, like a call lease (call-lease-rows.ts). A pending rating is stored with
 * the lease of the server rating it, renewed while the rater runs; a server that starts, or a
 * background pass, takes a pending rating over only once its lease ran out (its server died), and a
 * failed rating only when its retry is due. One conditional UPDATE claims it, so two servers never
 * both pay the rater for one session.
 */
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppContext } from '../app-context';
import type { Db } from '../db/client';
import { events } from '../db/schema';

/** A rating lease not renewed for this long is taken over. */
export const RATING_LEASE_MS = 15_000;
/** The rating server renews its lease this often while the rater runs. */
const RATING_LEASE_RENEW_MS = 5_000;

export const ratingLeaseEnd = sql`now() + ${RATING_LEASE_MS}::int * interval '1 millisecond'`;

/** A pending rating nobody holds (its server stopped renewing), or a failed one whose retry is due. */
export const claimableRating = or(
  and(eq(events.ratingStatus, 'pending'), or(isNull(events.nextRatingAt), lte(events.nextRatingAt, sql`now()`))),
  and(eq(events.ratingStatus, 'failed'), lte(events.nextRatingAt, sql`now()`)),
);

/** Takes the event's rating for this server, or answers null when another holds it (or it is done). */
export async function claimRating(db: Db, eventId: number) {
  const [claimed] = await db
    .update(events)
    .set({ nextRatingAt: ratingLeaseEnd })
    .where(and(eq(events.id, eventId), claimableRating))
    .returning();
  return claimed ?? null;
}

/** Runs the rater with the event's lease renewed meanwhile, so no other server takes it over. */
export async function holdingRating<T>(ctx: AppContext, eventId: number, run: () => Promise<T>): Promise<T> {
  const renew = setInterval(() => {
    ctx.db
      .update(events)
      .set({ nextRatingAt: ratingLeaseEnd })
      .where(and(eq(events.id, eventId), inArray(events.ratingStatus, ['pending', 'failed'])))
      .catch((error: unknown) => ctx.log.warn({ err: error, eventId }, 'could not renew a rating lease'));
  }, RATING_LEASE_RENEW_MS);
  renew.unref();
  try {
    return await run();
  } finally {
    clearInterval(renew);
  }
}
