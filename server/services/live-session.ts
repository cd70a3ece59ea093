/**
 * GET /interview/sessions/live (docs/product-rules.md, Session lifecycle, Leaving and coming back):
 * the caller's newest interview that is still open, as the server stored it. The browser shows it
 * after a reload, a closed tab or in a new tab, and offers to continue it (the resume path: same
 * session, no credit) or to end it and get feedback on what was said.
 */
import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import type { LiveSession, LiveSessionResponse } from '../../contract';
import type { AppContext } from '../app-context';
import { interviewSessions, questionSets } from '../db/schema';
import { requireAccount } from './accounts';
import { MAX_RESUMES } from './resume';
import { OPEN_STATUSES, SESSION_RATING_WINDOW_MS } from './sessions';

const TRANSPORTS = ['openai-realtime', 'browser-speech', 'speech-pipeline'] as const;
type Transport = LiveSession['transport'];
const isTransport = (value: string): value is Transport => (TRANSPORTS as readonly string[]).includes(value);

export async function liveSession(ctx: AppContext, email: string): Promise<LiveSessionResponse> {
  const account = await requireAccount(ctx.db, email);
  const since = new Date(Date.now() - SESSION_RATING_WINDOW_MS);
  const [row] = await ctx.db
    .select({ session: interviewSessions, topic: questionSets.name })
    .from(interviewSessions)
    .innerJoin(questionSets, eq(questionSets.id, interviewSessions.questionSetId))
    .where(
      and(
        eq(interviewSessions.accountId, account.id),
        inArray(interviewSessions.status, OPEN_STATUSES),
        gt(interviewSessions.createdAt, since),
      ),
    )
    .orderBy(desc(interviewSessions.createdAt))
    .limit(1);
  const session = row?.session;
  if (!row || !session || !isTransport(session.transport)) return { session: null };
  const transport = session.transport;
  const canContinue = session.finishedAt === null && session.resumes < MAX_RESUMES && session.transport === ctx.providers.voice.transport;
  return {
    session: {
      sessionId: session.id,
      questionSetId: session.questionSetId,
      topic: row.topic,
      transport,
      startedAt: session.createdAt.toISOString(),
      elapsedSeconds: Math.max(0, Math.floor((Date.now() - session.createdAt.getTime()) / 1000)),
      transcript: session.turns,
      canContinue,
    },
  };
}
