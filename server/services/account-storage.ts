/**
 * Each account's storage quota (README, Security and limits: `ACCOUNT_STORAGE_MB`): what one
 * person's interviews (transcripts, ratings, the sessions' turns) and feedback take in the
 * database, as stored (compressed) bytes. A new interview and new feedback are refused once the
 * account holds that much, so one free account cannot fill the disk. A rating's transcript is
 * checked again when it is stored, under the account's row lock (services/ratings.ts), because
 * sessions minted while the account was empty would otherwise each store one (issue 33 item 8:
 * ten of them stored 6 MB past a 1 MB quota): the first transcript stored below the quota passes
 * it, the ones after are refused. So an account ends at most one transcript (contract/limits.ts)
 * and its rating above its quota.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { HttpError } from './http-error';

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`);
export const storageFull = (quotaBytes: number) =>
  `This account has reached its storage limit (${size(quotaBytes)} of interviews and feedback). Please contact us to make room for more.`;

/** A rating refused because the account is full: its session ends and the refund rules of an empty one decide the credit. */
export function ratingRefusedFull(quotaBytes: number, credit: 'returned' | 'daily-limit' | 'call-opened'): string {
  const why =
    credit === 'returned'
      ? 'Your session credit was returned.'
      : credit === 'daily-limit'
        ? 'Your session credit was not returned: at most 3 a day are given back.'
        : 'Your session credit was not returned: the voice call had already been opened.';
  return `This account has reached its storage limit (${size(quotaBytes)} of interviews and feedback), so this interview was not stored or rated. ${why} Please contact us to make room for more.`;
}

/** The stored bytes of the account row aliased `a`, as one SQL expression (for statements that read the account anyway). */
export const STORED_BYTES_SQL = `(
    (select coalesce(sum(coalesce(pg_column_size(e.transcript), 0) + coalesce(pg_column_size(e.rating_markdown), 0)
                       + coalesce(pg_column_size(e.rating_breakdown), 0)), 0) from events e where e.account_id = a.id)
  + (select coalesce(sum(pg_column_size(s.turns)), 0) from interview_sessions s where s.account_id = a.id)
  + (select coalesce(sum(pg_column_size(f.feedback)), 0) from feedback f where f.account_id = a.id))::bigint`;

export async function storedBytes(db: Db, accountId: number): Promise<number> {
  const result = (await db.execute(
    sql.raw(`select ${STORED_BYTES_SQL} as bytes from accounts a where a.id = ${Number(accountId)}`),
  )) as unknown as {
    rows: Array<{ bytes: string | number }>;
  };
  return Number(result.rows[0]?.bytes ?? 0);
}

/** 403 with the sentence when the account holds its quota or more. */
export function requireStorageLeft(stored: number | string, quotaBytes: number): void {
  if (Number(stored) >= quotaBytes) throw new HttpError(403, storageFull(quotaBytes));
}
