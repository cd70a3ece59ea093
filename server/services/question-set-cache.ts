/**
 * The catalogue is read on every page load and changes only when an operator edits or syncs it,
 * so its JSON (one version for active pros, one for everyone else) is kept in memory. A snapshot
 * is used for REFRESH_MS after its database read started; the first request after that waits for
 * a new read (one shared read, however many requests arrive). So every answer reflects the
 * database as it was at most REFRESH_MS earlier, on every server process sharing the database,
 * whether the change came through another process, `catalogue:sync` or SQL. An admin edit in
 * this process drops the snapshot (`invalidate`), so candidates see it at once.
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

export type QuestionSetCache = ((email: string | null) => Promise<string>) & {
  /** The catalogue changed: the next request reads it afresh. */
  invalidate(): void;
};

export function createQuestionSetCache(db: Db, now: () => number = Date.now): QuestionSetCache {
  let snapshot: Snapshot | null = null;
  let reading: Promise<Snapshot> | null = null;
  // Bumped by invalidate(): a read that started before the change must not be kept after it.
  let generation = 0;
  const fresh = async (): Promise<Snapshot> => {
    if (snapshot && now() - snapshot.at <= REFRESH_MS) return snapshot;
    const started = generation;
    const read = (reading ??= build(db, now()).finally(() => {
      if (reading === read) reading = null;
    }));
    try {
      const next = await read;
      if (started === generation) snapshot = next;
      else return fresh();
    } catch (error) {
      // A failed read keeps the last good snapshot serving; the next request tries again.
      if (!snapshot) throw error;
    }
    return snapshot ?? fresh();
  };
  const answer = async (email: string | null) => {
    const current = await fresh();
    const account = email ? await findAccount(db, email) : null;
    return account && isActivePro(subscriptionOf(account)) ? current.pro : current.free;
  };
  return Object.assign(answer, {
    invalidate: () => {
      generation += 1;
      snapshot = null;
      reading = null;
    },
  });
}
