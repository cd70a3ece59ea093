/**
 * The catalogue is read on every page load and changes only when an operator edits or syncs it,
 * so its JSON (one version for active pros, one for everyone else) is kept in memory. A snapshot
 * is used for REFRESH_MS after its database read started; the first request after that waits for
 * a new read (one shared read, however many requests arrive). So every answer reflects the
 * database as it was at most REFRESH_MS earlier, on every server process sharing the database,
 * whether the change came through another process, `catalogue:sync` or SQL.
 */
import { questionSetListSchema } from '../../contract';
import { isActivePro } from '../../domain/tiles';
import type { Db } from '../db/client';
import { findAccount, subscriptionOf } from './accounts';
import { allQuestionSets, hidePremiumAnswers } from './question-sets';

export const REFRESH_MS = 2_000;

interface Snapshot {
  at: number;
  free: string;
  pro: string;
}

async function build(db: Db, now: number): Promise<Snapshot> {
  const sets = await allQuestionSets(db);
  const json = (pro: boolean) => JSON.stringify(questionSetListSchema.parse(hidePremiumAnswers(sets, pro)));
  return { at: now, free: json(false), pro: json(true) };
}

export function createQuestionSetCache(db: Db, now: () => number = Date.now): (email: string | null) => Promise<string> {
  let snapshot: Snapshot | null = null;
  let reading: Promise<Snapshot> | null = null;
  const fresh = async (): Promise<Snapshot> => {
    if (snapshot && now() - snapshot.at <= REFRESH_MS) return snapshot;
    reading ??= build(db, now()).finally(() => {
      reading = null;
    });
    try {
      snapshot = await reading;
    } catch (error) {
      // A failed read keeps the last good snapshot serving; the next request tries again.
      if (!snapshot) throw error;
    }
    return snapshot;
  };
  return async (email) => {
    const current = await fresh();
    const account = email ? await findAccount(db, email) : null;
    return account && isActivePro(subscriptionOf(account)) ? current.pro : current.free;
  };
}
