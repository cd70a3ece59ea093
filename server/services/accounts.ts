/** Accounts: identity by email, plans, login state (progress, topic levels, topic feedback). */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { LoginResponse, Subscription } from '../../contract';
import type { AppContext } from '../app-context';
import { preparedRows, type Db } from '../db/client';
import { accounts, events, feedback, questionSets } from '../db/schema';
import { levelCompletion, UNANSWERED_VERDICTS } from '../../domain/level-completion';
import { creditsOf } from './credits';
import { HttpError } from './http-error';

export type Account = typeof accounts.$inferSelect;

export const UNKNOWN_USER = 'We do not know this email yet. Please log in first.';
export const INVITE_ONLY = 'This email has not been invited. Please ask the team for access.';

export function subscriptionOf(account: Pick<Account, 'subscriptionId'> | null | undefined): Subscription {
  return account?.subscriptionId ? { type: 'pro', status: 'active' } : { type: 'free', status: 'active' };
}

export async function findAccount(db: Db, email: string): Promise<Account | null> {
  const [row] = await db.select().from(accounts).where(eq(accounts.email, email)).limit(1);
  return row ?? null;
}

/** Unknown user where one is required: 401. */
export async function requireAccount(db: Db, email: string): Promise<Account> {
  const account = await findAccount(db, email);
  if (!account) throw new HttpError(401, UNKNOWN_USER);
  return account;
}

export interface UserState {
  subscription: Subscription;
  progress: LoginResponse['progress'];
  topicLevels: Record<string, number>;
  topicFeedback: Record<string, boolean>;
}

/**
 * Completing a set = a rated interview on it answered every question of the set and scored at
 * least `LEVEL_PASS_SCORE` (domain/level-completion.ts); levels are the highest completed index per topic.
 */
export async function userState(db: Db, account: Account, passScore: number): Promise<UserState> {
  // Both reads at once: on PostgreSQL they use two pool connections, halving the waits.
  const [rated, given] = await Promise.all([ratedEvents(db, account), feedbackTopics(db, account)]);

  const topicLevels: Record<string, number> = {};
  const progress: LoginResponse['progress'] = [];
  for (const row of rated) {
    if (row.topic === null || row.questionSetIndex === null) continue;
    if (!levelCompletion(row.breakdown, row.score ?? 0, passScore).completed) continue;
    const index = row.questionSetIndex + 1;
    topicLevels[row.topic] = Math.max(topicLevels[row.topic] ?? 0, index);
    if (row.currentSetId !== null) {
      progress.push({
        questionSetId: row.currentSetId,
        topic: row.topic,
        index,
        score: row.score,
        completedAt: row.at.toISOString(),
      });
    }
  }
  const topicFeedback: Record<string, boolean> = {};
  for (const row of given) topicFeedback[row.topic] = true;

  return { subscription: subscriptionOf(account), progress, topicLevels, topicFeedback };
}

function ratedEvents(db: Db, account: Account) {
  return db
    .select({
      questionSetId: events.questionSetId,
      topic: events.topic,
      questionSetIndex: events.questionSetIndex,
      score: events.score,
      breakdown: events.ratingBreakdown,
      at: events.eventTimestamp,
      currentSetId: questionSets.id,
    })
    .from(events)
    .leftJoin(questionSets, eq(questionSets.id, events.questionSetId))
    .where(and(eq(events.accountId, account.id), eq(events.eventType, 'RATE'), eq(events.ratingStatus, 'rated')))
    .orderBy(asc(events.id));
}

function feedbackTopics(db: Db, account: Account) {
  return db.selectDistinct({ topic: feedback.topic }).from(feedback).where(eq(feedback.accountId, account.id));
}

/**
 * The user's state as two JSON aggregates of the account row aliased `a`, for calls that read it
 * in one statement with other things (login, minting): its rated interviews, oldest first, and the
 * topics it gave feedback on. userStateFrom turns them into the same UserState as userState.
 */
export const USER_STATE_COLUMNS = `
  coalesce((select json_agg(json_build_array(e.topic, e.question_set_index, e.score, e.event_timestamp, q.id,
                                              (select count(*) from jsonb_array_elements(coalesce(e.rating_breakdown, '[]'::jsonb)) b
                                               where b->>'verdict' in (${UNANSWERED_VERDICTS.map((v) => `'${v}'`).join(', ')}))) order by e.id)
            from events e left join question_sets q on q.id = e.question_set_id
            where e.account_id = a.id and e.event_type = 'RATE' and e.rating_status = 'rated'), '[]') as rated,
  coalesce((select json_agg(distinct f.topic) from feedback f where f.account_id = a.id), '[]') as topics`;

export interface UserStateColumns {
  /** [topic, question_set_index, score, event_timestamp (ISO text), current set id, unanswered questions] per rated interview. */
  rated: Array<[string | null, number | null, number | null, string, number | null, number]>;
  topics: string[];
}

export function userStateFrom(subscriptionId: string | null, columns: UserStateColumns, passScore: number): UserState {
  const topicLevels: Record<string, number> = {};
  const progress: LoginResponse['progress'] = [];
  for (const [topic, setIndex, score, at, currentSetId, unanswered] of columns.rated) {
    if (topic === null || setIndex === null) continue;
    // The same rule as levelCompletion, with the unanswered questions counted by the statement.
    if (unanswered > 0 || (score ?? 0) < passScore) continue;
    const index = setIndex + 1;
    topicLevels[topic] = Math.max(topicLevels[topic] ?? 0, index);
    if (currentSetId !== null) progress.push({ questionSetId: currentSetId, topic, index, score, completedAt: new Date(at).toISOString() });
  }
  const topicFeedback: Record<string, boolean> = {};
  for (const topic of columns.topics) topicFeedback[topic] = true;
  return { subscription: subscriptionOf({ subscriptionId }), progress, topicLevels, topicFeedback };
}

/**
 * Login in one statement (one round trip): stamp the login and return the account's previous
 * login (a sub-select in RETURNING still reads the statement's snapshot) and its state.
 */
const LOGIN_SQL = `
  with stamped as (
    update accounts set last_login_at = now() where email = $1
    returning id, subscription_id, session_limit, sessions_used, (select p.last_login_at from accounts p where p.id = accounts.id) as previous_login_at
  )
  select a.subscription_id, a.session_limit, a.sessions_used, a.previous_login_at, ${USER_STATE_COLUMNS}
  from stamped a`;

interface LoginRow extends UserStateColumns {
  subscription_id: string | null;
  session_limit: number | null;
  sessions_used: number;
  previous_login_at: Date | null;
}

export async function login(ctx: AppContext, email: string): Promise<LoginResponse> {
  const { db, config } = ctx;
  const [stamped] = await preparedRows<LoginRow>(db, 'login', LOGIN_SQL, [email]);
  // An invited account (created by an admin) that never logged in is new to the product too.
  if (stamped) {
    const credits = creditsOf(config, {
      subscriptionId: stamped.subscription_id,
      sessionLimit: stamped.session_limit,
      sessionsUsed: stamped.sessions_used,
    });
    return {
      ...userStateFrom(stamped.subscription_id, stamped, config.levelPassScore),
      isNewUser: stamped.previous_login_at === null,
      credits,
    };
  }
  if (config.signup === 'invite') throw new HttpError(403, INVITE_ONLY);
  // Two first logins at once: the unique email index decides, both get the same account.
  const [created] = await db
    .insert(accounts)
    .values({ email, lastLoginAt: sql`now()` })
    .onConflictDoNothing()
    .returning();
  const account = created ?? (await requireAccount(db, email));
  return {
    ...(await userState(db, account, config.levelPassScore)),
    isNewUser: created !== undefined,
    credits: creditsOf(config, account),
  };
}
