/** The dashboard's charts and session figures over the last 7, 30 or 90 days (UTC calendar days, today included). */
import { and, asc, countDistinct, eq, gte, isNull, sql } from 'drizzle-orm';
import type { DailyStats, SessionFigures } from '../../../contract';
import type { Db } from '../../db/client';
import { events, interviewSessions, questionSets } from '../../db/schema';

const DAY_MS = 24 * 60 * 60 * 1000;
const SCORE_BANDS = 10;

function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The range's days, oldest first; `from` is midnight UTC of the first. */
export function rangeDays(days: number, now: Date): { from: Date; dates: string[] } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = today - (days - 1) * DAY_MS;
  return { from: new Date(first), dates: Array.from({ length: days }, (_, i) => isoDay(first + i * DAY_MS)) };
}

const dayOf = sql<string>`to_char(${events.eventTimestamp} at time zone 'UTC', 'YYYY-MM-DD')`;
const isRated = and(eq(events.eventType, 'RATE'), eq(events.ratingStatus, 'rated'));

async function perDay(db: Db, from: Date, dates: string[]): Promise<DailyStats['perDay']> {
  const rows = await db
    .select({
      day: dayOf,
      started: sql<number>`count(*) filter (where ${events.eventType} = 'START')::int`,
      rated: sql<number>`count(*) filter (where ${isRated})::int`,
    })
    .from(events)
    .where(gte(events.eventTimestamp, from))
    .groupBy(dayOf);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return dates.map((date) => ({ date, started: byDay.get(date)?.started ?? 0, rated: byDay.get(date)?.rated ?? 0 }));
}

async function scores(db: Db, from: Date): Promise<DailyStats['scores']> {
  // A score of 100 belongs to the top band (90-100).
  const band = sql<number>`least(floor(${events.score} / 10), ${sql.raw(String(SCORE_BANDS - 1))})::int`;
  const rows = await db
    .select({ band, n: sql<number>`count(*)::int` })
    .from(events)
    .where(and(isRated, gte(events.eventTimestamp, from), sql`${events.score} is not null`))
    .groupBy(band);
  const byBand = new Map(rows.map((r) => [r.band, r.n]));
  return Array.from({ length: SCORE_BANDS }, (_, i) => ({
    from: i * 10,
    to: i === SCORE_BANDS - 1 ? 100 : i * 10 + 9,
    count: byBand.get(i) ?? 0,
  }));
}

async function completionBySet(db: Db, from: Date): Promise<DailyStats['completionBySet']> {
  return db
    .select({
      questionSetId: questionSets.id,
      name: questionSets.name,
      index: questionSets.index,
      accounts: sql<number>`${countDistinct(events.accountId)}::int`,
    })
    .from(questionSets)
    .leftJoin(events, and(eq(events.questionSetId, questionSets.id), isRated, gte(events.eventTimestamp, from)))
    .where(isNull(questionSets.archivedAt))
    .groupBy(questionSets.id, questionSets.name, questionSets.index)
    .orderBy(asc(questionSets.index));
}

const lengthSeconds = sql`extract(epoch from (${interviewSessions.endedAt} - ${interviewSessions.connectedAt}))`;
const connectMs = sql`extract(epoch from (${interviewSessions.connectedAt} - ${interviewSessions.createdAt})) * 1000`;
const measuredLength = sql`${interviewSessions.endedAt} is not null and ${interviewSessions.connectedAt} is not null`;
const measuredConnect = sql`${interviewSessions.connectedAt} is not null`;

const round = (value: number | string | null, places: number) => (value === null ? null : Number(Number(value).toFixed(places)));

/** Sessions minted in the range: median and p90 of length (connected to ended) and connect time, total estimated cost. */
export async function sessionFigures(db: Db, from: Date): Promise<SessionFigures> {
  const [row] = await db
    .select({
      sessions: sql<number>`count(*)::int`,
      lengths: sql<number>`count(*) filter (where ${measuredLength})::int`,
      lengthMedian: sql<string | null>`percentile_cont(0.5) within group (order by ${lengthSeconds}) filter (where ${measuredLength})`,
      lengthP90: sql<string | null>`percentile_cont(0.9) within group (order by ${lengthSeconds}) filter (where ${measuredLength})`,
      connects: sql<number>`count(*) filter (where ${measuredConnect})::int`,
      connectMedian: sql<string | null>`percentile_cont(0.5) within group (order by ${connectMs}) filter (where ${measuredConnect})`,
      connectP90: sql<string | null>`percentile_cont(0.9) within group (order by ${connectMs}) filter (where ${measuredConnect})`,
      cost: sql<string>`coalesce(sum(${interviewSessions.estimatedCostUsd}), 0)`,
    })
    .from(interviewSessions)
    .where(gte(interviewSessions.createdAt, from));
  return {
    sessions: row?.sessions ?? 0,
    lengthSeconds: { count: row?.lengths ?? 0, median: round(row?.lengthMedian ?? null, 1), p90: round(row?.lengthP90 ?? null, 1) },
    connectMs: { count: row?.connects ?? 0, median: round(row?.connectMedian ?? null, 0), p90: round(row?.connectP90 ?? null, 0) },
    estimatedCostUsd: round(row?.cost ?? 0, 6) ?? 0,
  };
}

export async function dailyStats(db: Db, days: number, now: Date = new Date()): Promise<DailyStats> {
  const { from, dates } = rangeDays(days, now);
  const [daily, bands, completion, sessions] = await Promise.all([
    perDay(db, from, dates),
    scores(db, from),
    completionBySet(db, from),
    sessionFigures(db, from),
  ]);
  return {
    days,
    from: dates[0] ?? isoDay(from.getTime()),
    to: dates[dates.length - 1] ?? isoDay(now.getTime()),
    perDay: daily,
    scores: bands,
    completionBySet: completion,
    sessions,
  };
}
