/**
 * Minting an interview session: the tile rules (403), one credit consumed atomically (402 when
 * none are left), the provider's session, the interview_sessions row and a START event. A provider
 * failure gives the credit back.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { TokenResponse } from '../../contract';
import { sessionRefusal } from '../../domain/tiles';
import type { AppContext } from '../app-context';
import type { Db } from '../db/client';
import { accounts, events, interviewSessions } from '../db/schema';
import { HttpError } from '../plugins/errors';
import { ProviderError } from '../providers/types';
import { requireAccount, userState, type Account } from './accounts';
import { requireQuestionSet } from './question-sets';

export const OUT_OF_CREDITS = 'You have run out of interview sessions. Please contact us to get more credits.';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The one statement that spends a credit: it cannot overspend under any concurrency. */
async function consumeCredit(ctx: AppContext, account: Account): Promise<boolean> {
  const { freeSessionLimit, proSessionLimit } = ctx.config;
  const limit = sql`coalesce(${accounts.sessionLimit}, case when ${accounts.subscriptionId} is not null then ${proSessionLimit}::int else ${freeSessionLimit}::int end)`;
  const rows = await ctx.db
    .update(accounts)
    .set({ sessionsUsed: sql`${accounts.sessionsUsed} + 1` })
    .where(and(eq(accounts.id, account.id), sql`${accounts.sessionsUsed} < ${limit}`))
    .returning({ id: accounts.id });
  return rows.length === 1;
}

async function refundCredit(db: Db, account: Account): Promise<void> {
  await db
    .update(accounts)
    .set({ sessionsUsed: sql`${accounts.sessionsUsed} - 1` })
    .where(and(eq(accounts.id, account.id), gt(accounts.sessionsUsed, 0)));
}

export async function mintSessionToken(ctx: AppContext, email: string, questionSetId: number): Promise<TokenResponse> {
  const account = await requireAccount(ctx.db, email);
  const set = await requireQuestionSet(ctx.db, questionSetId);
  const refusal = sessionRefusal(set, await userState(ctx.db, account));
  if (refusal) throw new HttpError(403, refusal);

  if (!(await consumeCredit(ctx, account))) throw new HttpError(402, OUT_OF_CREDITS);

  const sessionId = randomUUID();
  let token: TokenResponse;
  try {
    token = await ctx.providers.voice.createSession({ sessionId, set, userEmail: account.email });
  } catch (error) {
    await refundCredit(ctx.db, account);
    if (error instanceof ProviderError) {
      ctx.log.warn({ status: error.status, upstreamStatus: error.upstreamStatus, err: error }, 'voice provider refused a session');
      throw new HttpError(error.status, error.message);
    }
    throw error;
  }

  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(interviewSessions).values({
        id: sessionId,
        accountId: account.id,
        questionSetId: set.id,
        transport: token.transport,
        tokenHash: hashToken(token.client_secret.value),
      });
      await tx.insert(events).values({
        eventType: 'START',
        accountId: account.id,
        userEmail: account.email,
        questionSetId: set.id,
        topic: set.name,
        questionSetIndex: set.index - 1,
        sessionId,
      });
    });
  } catch (error) {
    await refundCredit(ctx.db, account);
    throw error;
  }
  return token;
}
