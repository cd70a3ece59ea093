/**
 * Each account's storage quota (README, Security and limits: `ACCOUNT_STORAGE_MB`): what one
 * person's interviews (transcripts, ratings, the sessions' turns) and feedback take in the
 * database, as stored (compressed) bytes. A new interview and new feedback are refused once the
 * account holds that much, so one free account cannot fill the disk. One interview adds at most
 * its transcript cap (contract/limits.ts) and rating, so an account ends at most that far above.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { HttpError } from './http-error';

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`);
export const storageFull = (quotaBytes: number) =>
  `This account has reached its storage limit (${size(quotaBytes)} of interviews and feedback). Please contact us to make room for more.`;

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
