/**
 * Minting an interview session: the tile rules (403), one credit consumed atomically (402 when
 * none are left), the provider's session, the interview_sessions row (status minted, see
 * sessions.ts) and a START event. A provider failure gives the credit back. Three round trips:
 * read (account, set, state), spend, record (bench/notes.md).
 */
import { randomUUID } from 'node:crypto';
import type { TokenResponse } from '../../contract';
import { sessionRefusal } from '../../domain/tiles';
import type { AppContext } from '../app-context';
import { preparedRows } from '../db/client';
import type { QuestionSetRecord } from '../db/schema';
import { HttpError } from './http-error';
import { ProviderError } from '../providers/types';
import { UNKNOWN_USER, USER_STATE_COLUMNS, userStateFrom, type UserStateColumns } from './accounts';
import { consumeCredit, refundCredit } from './credits';
import { requireStorageLeft, STORED_BYTES_SQL } from './account-storage';
import { UNKNOWN_SET } from './question-sets';
import { sessionTokenHash } from './sessions';

export const OUT_OF_CREDITS = 'You have run out of interview sessions. Please contact us to get more credits.';

/**
 * Everything the tile rules need, in one statement: the account, the set and the user's state.
 * `set` is null for an unknown or archived set (no session may start on it); no row means an
 * unknown email.
 */
const MINT_STATE_SQL = `
  select a.id, a.email, a.subscription_id,
    (select json_build_object('id', q.id, 'name', q.name, 'index', q.index, 'isPremium', q.is_premium,
                              'requiresFeedback', q.requires_feedback, 'questions', q.questions,
                              'instructions', q.instructions, 'modelAnswers', q.model_answers)
     from question_sets q where q.id = $2 and q.archived_at is null) as set,
    ${STORED_BYTES_SQL} as stored_bytes,
    ${USER_STATE_COLUMNS}
  from accounts a where a.email = $1`;

interface MintStateRow extends UserStateColumns {
  id: number;
  email: string;
  subscription_id: string | null;
  set: QuestionSetRecord | null;
  /** What the account stores (services/account-storage.ts); bigint, so text from the driver. */
  stored_bytes: string | number;
}

/** The session row and its START event in one statement: atomic without a transaction's extra round trips. */
const RECORD_MINT_SQL = `
  with minted as (
    insert into interview_sessions (id, account_id, question_set_id, transport, token_hash)
    values ($1, $2, $3, $4, $5)
  )
  insert into events (event_type, account_id, user_email, question_set_id, topic, question_set_index, session_id)
  values ('START', $2, $6, $3, $7, $8, $1)`;

export async function mintSessionToken(ctx: AppContext, email: string, questionSetId: number): Promise<TokenResponse> {
  const [account] = await preparedRows<MintStateRow>(ctx.db, 'mint-state', MINT_STATE_SQL, [email, questionSetId]);
  if (!account) throw new HttpError(401, UNKNOWN_USER);
  const { set } = account;
  if (!set) throw new HttpError(404, UNKNOWN_SET);
  const refusal = sessionRefusal(set, userStateFrom(account.subscription_id, account, ctx.config.levelPassScore));
  if (refusal) throw new HttpError(403, refusal);
  requireStorageLeft(account.stored_bytes, ctx.config.accountStorageBytes);

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
    await preparedRows(ctx.db, 'record-mint', RECORD_MINT_SQL, [
      sessionId,
      account.id,
      set.id,
      token.transport,
      sessionTokenHash(token),
      account.email,
      set.name,
      set.index - 1,
    ]);
  } catch (error) {
    await refundCredit(ctx.db, account.id);
    throw error;
  }
  return token;
}
