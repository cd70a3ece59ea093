/**
 * What the feedback of a session the server ended by itself says first (docs/product-rules.md,
 * Session lifecycle, Leaving and coming back): the candidate reads in History why it ended.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { interviewSessions } from '../db/schema';

export function leftDetail(idleMinutes: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const span =
    idleMinutes >= 1 ? plural(Math.round(idleMinutes * 10) / 10, 'minute') : plural(Math.max(1, Math.round(idleMinutes * 60)), 'second');
  return `no activity for ${span}`;
}

export function leftNoteText(detail: string | null): string {
  return `> This interview was ended automatically (${detail ?? 'left open'}), and rated on everything you said that reached us.\n\n`;
}

/** The note for a session the server ended as left; '' for any other. */
export async function leftSessionNote(db: Db, sessionId: string): Promise<string> {
  const [row] = await db
    .select({ endReason: interviewSessions.endReason, endDetail: interviewSessions.endDetail })
    .from(interviewSessions)
    .where(eq(interviewSessions.id, sessionId))
    .limit(1);
  return row?.endReason === 'left' ? leftNoteText(row.endDetail) : '';
}
