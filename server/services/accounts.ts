/** Accounts: identity by email, plans, login state (progress, topic levels, topic feedback). */
import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { LoginResponse, Subscription } from '../../contract';
import type { AppContext } from '../app-context';
import type { Db } from '../db/client';
import { accounts, events, feedback, questionSets } from '../db/schema';
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

/** Completing a set = an interview on it was rated; levels are the highest completed index per topic. */
export async function userState(db: Db, account: Account): Promise<UserState> {
  // Both reads at once: on PostgreSQL they use two pool connections, halving the waits.
  const [rated, given] = await Promise.all([ratedEvents(db, account), feedbackTopics(db, account)]);

  const topicLevels: Record<string, number> = {};
  const progress: LoginResponse['progress'] = [];
  for (const row of rated) {
    if (row.topic === null || row.questionSetIndex === null) continue;
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

export async function login(ctx: AppContext, email: string): Promise<LoginResponse> {
  const { db, config } = ctx;
  // One round trip for a returning user: the update stamps the login and returns the row, and the
  // sub-select in RETURNING still sees the previous login (it reads the statement's snapshot).
  const [stamped] = await db
    .update(accounts)
    .set({ lastLoginAt: sql`now()` })
    .where(eq(accounts.email, email))
    .returning({
      ...getTableColumns(accounts),
      // Spelled out: Drizzle renders a column in RETURNING unqualified, which would bind to `p`.
      previousLoginAt: sql<Date | null>`(select p.last_login_at from accounts p where p.id = "accounts"."id")`,
    });
  let account: Account;
  let isNewUser: boolean;
  if (stamped) {
    const { previousLoginAt, ...row } = stamped;
    account = row;
    // An invited account (created by an admin) that never logged in is new to the product too.
    isNewUser = previousLoginAt === null;
  } else {
    if (config.signup === 'invite') throw new HttpError(403, INVITE_ONLY);
    // Two first logins at once: the unique email index decides, both get the same account.
    const [created] = await db.insert(accounts).values({ email, lastLoginAt: sql`now()` }).onConflictDoNothing().returning();
    isNewUser = created !== undefined;
    account = created ?? (await requireAccount(db, email));
  }
  const state = await userState(db, account);
  return { ...state, isNewUser };
}
