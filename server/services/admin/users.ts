/**
 * Data requests about one person: everything stored under their email, and its erasure. Rows are
 * found by account and by the email they name, so rows kept after an earlier account deletion are
 * found too. Erasing removes the account and with it its per-account counters, so the admin stats
 * (which read those counters and the remaining events) stay consistent, then what the server can
 * remove beyond the rows (docs/product-rules.md, Data requests): the person's rate-limit windows,
 * whose keys hold the email, and on PGlite the deleted rows' bytes in the table files.
 */
import { asc, eq, or, sql } from 'drizzle-orm';
import type { UserData, UserErasure } from '../../../contract';
import { isPglite, type Db } from '../../db/client';
import { accounts, authSessions, events, feedback, interviewSessions, signinLinks } from '../../db/schema';
import { HttpError } from '../http-error';
import { toAdminEvent, toAdminFeedback, toEmailAccount, type PlanLimits } from './console';
import { findAccount } from '../accounts';
import type { WindowCounter } from '../window-counter';

const nothingHeld = (email: string) => new HttpError(404, `Nothing is stored about ${email}.`);

/** Rows of `table` that belong to the account or name the email. */
function ownedBy(table: typeof events | typeof feedback, email: string, accountId: number | null) {
  return accountId === null ? eq(table.userEmail, email) : or(eq(table.accountId, accountId), eq(table.userEmail, email));
}

export async function userData(db: Db, limits: PlanLimits, email: string): Promise<UserData> {
  const account = await findAccount(db, email);
  const id = account?.id ?? null;
  const [eventRows, feedbackRows, sessionRows] = await Promise.all([
    db
      .select()
      .from(events)
      .where(ownedBy(events, email, id))
      .orderBy(asc(events.id)),
    db
      .select()
      .from(feedback)
      .where(ownedBy(feedback, email, id))
      .orderBy(asc(feedback.id)),
    id === null
      ? []
      : db.select().from(interviewSessions).where(eq(interviewSessions.accountId, id)).orderBy(asc(interviewSessions.createdAt)),
  ]);
  if (!account && eventRows.length === 0 && feedbackRows.length === 0) throw nothingHeld(email);
  const sessionById = new Map(sessionRows.map((row) => [row.id, row]));
  return {
    email,
    account: account ? toEmailAccount(limits, account) : null,
    events: eventRows.map((row) => toAdminEvent(row, (row.sessionId && sessionById.get(row.sessionId)) || null)),
    feedback: feedbackRows.map(toAdminFeedback),
    sessions: sessionRows.map((row) => ({
      id: row.id,
      questionSetId: row.questionSetId,
      transport: row.transport,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
      turns: row.turns,
    })),
  };
}

/**
 * A deleted row stays in its table file until the page is rewritten. On PGlite (one process, the
 * tables of one small product) VACUUM FULL rewrites the four tables (and their TOAST: long
 * transcripts) into new files and drops the old ones; CHECKPOINT writes them out. On PostgreSQL
 * that would lock the tables for every server, so it is left to the operator (plain VACUUM, run by
 * autovacuum, frees the space without overwriting it).
 */
async function compactAfterErasure(db: Db): Promise<void> {
  if (!isPglite(db)) return;
  await db.execute(sql`vacuum full events, feedback, interview_sessions, accounts`);
  await db.execute(sql`checkpoint`);
}

/** Erases the account, its sessions, events (transcripts, ratings) and feedback in one transaction. */
export async function eraseUser(db: Db, limits: WindowCounter, email: string): Promise<UserErasure> {
  const removed = await db.transaction(async (tx) => {
    const [account] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email)).limit(1);
    const id = account?.id ?? null;
    const sessions =
      id === null
        ? []
        : await tx.delete(interviewSessions).where(eq(interviewSessions.accountId, id)).returning({ id: interviewSessions.id });
    const erasedEvents = await tx
      .delete(events)
      .where(ownedBy(events, email, id))
      .returning({ id: events.id });
    const erasedFeedback = await tx
      .delete(feedback)
      .where(ownedBy(feedback, email, id))
      .returning({ id: feedback.id });
    const erasedAccounts = id === null ? [] : await tx.delete(accounts).where(eq(accounts.id, id)).returning({ id: accounts.id });
    // Their signed-in browsers are signed out and their sign-in links stop working (SIGNIN=link).
    await tx.delete(authSessions).where(eq(authSessions.email, email));
    await tx.delete(signinLinks).where(eq(signinLinks.email, email));
    return { accounts: erasedAccounts.length, events: erasedEvents.length, feedback: erasedFeedback.length, sessions: sessions.length };
  });
  if (removed.accounts + removed.events + removed.feedback + removed.sessions === 0) throw nothingHeld(email);
  // Per-account rate-limit keys end with the email (plugins/call-limits.ts: account:<call>:<email>).
  await limits.forget(`:${email}`);
  await compactAfterErasure(db);
  return { email, removed };
}
