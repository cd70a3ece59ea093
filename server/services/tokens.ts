/**
 * Minting an interview session: the tile rules (403), one credit consumed atomically (402 when
 * none are left), the provider's session, the interview_sessions row (status minted, see
 * sessions.ts) and a START event. A provider failure gives the credit back.
 */
import { randomUUID } from 'node:crypto';
import type { TokenResponse } from '../../contract';
import { sessionRefusal } from '../../domain/tiles';
import type { AppContext } from '../app-context';
import { events } from '../db/schema';
import { HttpError } from './http-error';
import { ProviderError } from '../providers/types';
import { requireAccount, userState } from './accounts';
import { consumeCredit, refundCredit } from './credits';
import { requireActiveQuestionSet } from './question-sets';
import { recordMintedSession } from './sessions';

export const OUT_OF_CREDITS = 'You have run out of interview sessions. Please contact us to get more credits.';

export async function mintSessionToken(ctx: AppContext, email: string, questionSetId: number): Promise<TokenResponse> {
  const account = await requireAccount(ctx.db, email);
  const set = await requireActiveQuestionSet(ctx.db, questionSetId);
  const refusal = sessionRefusal(set, await userState(ctx.db, account));
  if (refusal) throw new HttpError(403, refusal);

  if (!(await consumeCredit(ctx.db, ctx.config, account.id))) throw new HttpError(402, OUT_OF_CREDITS);

  const sessionId = randomUUID();
  let token: TokenResponse;
  try {
    token = await ctx.providers.voice.createSession({ sessionId, set, userEmail: account.email });
  } catch (error) {
    await refundCredit(ctx.db, account.id);
    if (error instanceof ProviderError) {
      ctx.log.warn({ status: error.status, upstreamStatus: error.upstreamStatus, err: error }, 'voice provider refused a session');
      throw new HttpError(error.status, error.message);
    }
    throw error;
  }

  try {
    await ctx.db.transaction(async (tx) => {
      await recordMintedSession(tx, { id: sessionId, accountId: account.id, questionSetId: set.id, token });
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
    await refundCredit(ctx.db, account.id);
    throw error;
  }
  return token;
}
