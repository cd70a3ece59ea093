/**
 * The catalogue is read on every page load and changes only when an operator syncs it, so its
 * JSON (one version for active pros, one for everyone else) is kept in memory and refreshed in
 * the background at most every REFRESH_MS: requests never wait for the database, and a sync run
 * against a live PostgreSQL shows within about REFRESH_MS. (On PGlite the sync needs the server
 * stopped, so a restart loads it.)
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
  let current: Promise<Snapshot> | null = null;
  let refreshing = false;
  const refresh = () => {
    if (refreshing) return;
    refreshing = true;
    const next = build(db, now());
    next.then(
      () => {
        current = next;
        refreshing = false;
      },
      () => {
        refreshing = false; // keep serving the last good snapshot; the next request retries
      },
    );
  };
  return async (email) => {
    if (!current) current = build(db, now());
    let snapshot: Snapshot;
    try {
      snapshot = await current;
    } catch (error) {
      current = null;
      throw error;
    }
    if (now() - snapshot.at > REFRESH_MS) refresh();
    const account = email ? await findAccount(db, email) : null;
    return account && isActivePro(subscriptionOf(account)) ? snapshot.pro : snapshot.free;
  };
}
