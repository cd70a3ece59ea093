/** The interviewee's feedback on a topic (unlocks sets that require feedback). */
import type { Db } from '../db/client';
import { feedback } from '../db/schema';
import type { Account } from './accounts';
import { requireStorageLeft, storedBytes } from './account-storage';

export async function createFeedback(
  db: Db,
  storageQuotaBytes: number,
  account: Account,
  input: { feedback: string; topic: string; questionIndex: number },
): Promise<{ id: number }> {
  requireStorageLeft(await storedBytes(db, account.id), storageQuotaBytes);
  const [row] = await db
    .insert(feedback)
    .values({
      accountId: account.id,
      userEmail: account.email,
      topic: input.topic,
      questionIndex: input.questionIndex,
      feedback: input.feedback.trim(),
    })
    .returning({ id: feedback.id });
  if (!row) throw new Error('insert returned no row');
  return row;
}
