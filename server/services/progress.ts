/**
 * The candidate's progress (docs/product-rules.md, Results and history), from the stored ratings
 * and their per-question breakdowns: each topic's scores over time, the key points missed most
 * often, and the question to practise next. One read of the account's rated interviews.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import {
  MAX_MISSED_KEY_POINTS,
  type MissedKeyPoint,
  type PractiseNext,
  type ProgressResponse,
  type RatingTranscript,
  type TopicProgress,
} from '../../contract';
import type { AppContext } from '../app-context';
import { events, questionSets } from '../db/schema';
import { requireAccount } from './accounts';
import { HttpError } from './http-error';

export const UNKNOWN_RATING = 'There is no such interview in your history.';

interface QuestionTally {
  topic: string;
  setIndex: number;
  question: string;
  /** Order of first appearance, for stable ties. */
  order: number;
  asked: number;
  missed: Map<string, number>;
  /** The latest rating of the question. */
  latest: { score: number; missed: string[]; questionSetId: number | null };
}

export async function progress(ctx: AppContext, email: string): Promise<ProgressResponse> {
  const account = await requireAccount(ctx.db, email);
  const rows = await ctx.db
    .select({
      id: events.id,
      topic: events.topic,
      setIndex: events.questionSetIndex,
      score: events.score,
      at: events.eventTimestamp,
      breakdown: events.ratingBreakdown,
      // The set as candidates can still choose it (an archived set cannot be practised).
      questionSetId: questionSets.id,
    })
    .from(events)
    .leftJoin(questionSets, and(eq(questionSets.id, events.questionSetId), isNull(questionSets.archivedAt)))
    .where(and(eq(events.accountId, account.id), eq(events.eventType, 'RATE'), eq(events.ratingStatus, 'rated')))
    .orderBy(asc(events.id));

  const topics = new Map<string, TopicProgress>();
  const questions = new Map<string, QuestionTally>();
  for (const row of rows) {
    if (row.topic === null || row.setIndex === null || row.score === null) continue;
    const setIndex = row.setIndex + 1;
    const topic = topics.get(row.topic) ?? { topic: row.topic, points: [] };
    topics.set(row.topic, topic);
    topic.points.push({ ratingId: row.id, setIndex, score: Math.round(row.score), at: row.at.toISOString() });
    for (const item of row.breakdown ?? []) {
      const key = JSON.stringify([row.topic, setIndex, item.question]);
      const tally = questions.get(key) ?? {
        topic: row.topic,
        setIndex,
        question: item.question,
        order: questions.size,
        asked: 0,
        missed: new Map<string, number>(),
        latest: { score: item.score, missed: item.missed, questionSetId: row.questionSetId },
      };
      questions.set(key, tally);
      tally.asked += 1;
      for (const point of item.missed) tally.missed.set(point, (tally.missed.get(point) ?? 0) + 1);
      tally.latest = { score: item.score, missed: item.missed, questionSetId: row.questionSetId };
    }
  }
  return {
    topics: [...topics.values()],
    missedKeyPoints: mostMissed([...questions.values()]),
    practiseNext: practiseNext([...questions.values()]),
  };
}

/** Most often missed first; then the larger share of the times asked; then the order they were first asked. */
function mostMissed(tallies: readonly QuestionTally[]): MissedKeyPoint[] {
  const all = tallies.flatMap((t) =>
    [...t.missed].map(([keyPoint, missed], k) => ({
      point: { topic: t.topic, setIndex: t.setIndex, question: t.question, keyPoint, missed, asked: t.asked },
      order: t.order,
      k,
    })),
  );
  all.sort(
    (a, b) =>
      b.point.missed - a.point.missed || b.point.missed / b.point.asked - a.point.missed / a.point.asked || a.order - b.order || a.k - b.k,
  );
  return all.slice(0, MAX_MISSED_KEY_POINTS).map((entry) => entry.point);
}

/** The question whose latest score is lowest, on a set that can still be chosen; ties go to the question asked first. */
function practiseNext(tallies: readonly QuestionTally[]): PractiseNext | null {
  let best: QuestionTally | null = null;
  for (const t of tallies) {
    if (t.latest.questionSetId === null || t.latest.score >= 100) continue;
    if (!best || t.latest.score < best.latest.score) best = t;
  }
  if (!best || best.latest.questionSetId === null) return null;
  return {
    questionSetId: best.latest.questionSetId,
    topic: best.topic,
    setIndex: best.setIndex,
    question: best.question,
    score: best.latest.score,
    missed: best.latest.missed,
  };
}

/** Both sides of one of the candidate's rated interviews (the results and every History item offer it). */
export async function ratingTranscript(ctx: AppContext, email: string, id: number): Promise<RatingTranscript> {
  const account = await requireAccount(ctx.db, email);
  const [row] = await ctx.db
    .select({ id: events.id, transcript: events.transcript })
    .from(events)
    .where(and(eq(events.id, id), eq(events.accountId, account.id), eq(events.eventType, 'RATE')))
    .limit(1);
  if (!row) throw new HttpError(404, UNKNOWN_RATING);
  return { id: row.id, transcript: row.transcript ?? [] };
}
