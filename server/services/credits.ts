/**
 * Session credits: spent by one conditional UPDATE when a session is minted, given back by one
 * UPDATE when a session is abandoned (docs/decisions/002-credit-accounting.md).
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Credits } from '../../contract';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import { accounts } from '../db/schema';

/** The one statement that spends a credit: it cannot overspend under any concurrency. */
export async function consumeCredit(
  db: Db,
  config: Pick<AppConfig, 'freeSessionLimit' | 'proSessionLimit'>,
  accountId: number,
): Promise<boolean> {
  const limit = sql`coalesce(${accounts.sessionLimit}, case when ${accounts.subscriptionId} is not null then ${config.proSessionLimit}::int else ${config.freeSessionLimit}::int end)`;
  const rows = await db
    .update(accounts)
    .set({ sessionsUsed: sql`${accounts.sessionsUsed} + 1` })
    .where(and(eq(accounts.id, accountId), sql`${accounts.sessionsUsed} < ${limit}`))
    .returning({ id: accounts.id });
  return rows.length === 1;
}

export async function refundCredit(db: Db, accountId: number): Promise<void> {
  await db
    .update(accounts)
    .set({ sessionsUsed: sql`${accounts.sessionsUsed} - 1` })
    .where(and(eq(accounts.id, accountId), gt(accounts.sessionsUsed, 0)));
}

/** What the login shows (docs/product-rules.md, Credits): the limit as consumeCredit computes it. */
export function creditsOf(
  config: Pick<AppConfig, 'freeSessionLimit' | 'proSessionLimit'>,
  account: { subscriptionId: string | null; sessionLimit: number | null; sessionsUsed: number },
): Credits {
  const pro = account.subscriptionId !== null;
  const limit = account.sessionLimit ?? (pro ? config.proSessionLimit : config.freeSessionLimit);
  const proLimit = !pro && account.sessionLimit === null && config.proSessionLimit > limit ? config.proSessionLimit : null;
  return { left: Math.max(0, limit - account.sessionsUsed), limit, proLimit };
}
