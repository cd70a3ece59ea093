/**
 * The events page is JSON text built by the database in one statement (eventsPageJson). It must
 * answer what the ORM query with toAdminEvent and the contract's encoding answered on the same
 * rows, on both databases (microsecond timestamps, sessions with and without telemetry, clamped
 * times, float costs, numeric usage, a session that is gone, events without one, every cursor),
 * and the contract's schema must accept it unchanged (docs/decisions/021-events-page-json-from-postgresql.md).
 */
import { desc, eq, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventsResponseSchema, type AdminEventRow, type RatingBreakdown, type SessionUsage, type TranscriptEntry } from '../../../contract';
import { EVENT_PREVIEW_CHARS, EVENT_PREVIEW_ENTRIES } from '../../../contract/limits';
import { FIXTURE_SETS } from '../../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../../test-support/test-app';
import { accounts, events, interviewSessions, questionSets } from '../../db/schema';
import { eventsPageJson, toAdminEventRow } from './console';

const EMAIL = 'events-page@example.com';
const KEY = 'admin:127.0.0.1';
const TURNS: TranscriptEntry[] = [
  { role: 'interviewer', transcript: 'What is a closure?', at: 0 },
  { role: 'interviewee', transcript: 'A function with the scope it was made in. "Quoted", and a \\ backslash.', at: 1520 },
  { role: 'interviewer', transcript: 'And the event loop?' },
  { role: 'interviewee', transcript: 'Tasks, then microtasks — ünïcödé too.' },
];
const BREAKDOWN: RatingBreakdown = [
  {
    question: 'What is a closure?',
    verdict: 'Answered well',
    score: 80,
    covered: ['scope'],
    missed: ['lifetime'],
    evidence: ['the scope it was made in'],
  },
];

/** The answer as the route gave it before: the ORM join, toAdminEventRow (the previews), the contract's encoding, JSON. */
async function before(t: TestApp, limit: number, cursor?: number): Promise<unknown> {
  const rows = await t.db
    .select({ event: events, session: interviewSessions })
    .from(events)
    .leftJoin(interviewSessions, eq(interviewSessions.id, events.sessionId))
    .where(cursor === undefined ? undefined : lt(events.id, cursor))
    .orderBy(desc(events.id))
    .limit(limit);
  return JSON.parse(JSON.stringify(eventsResponseSchema.parse(rows.map((row) => toAdminEventRow(row.event, row.session)))));
}

describeDatabases('the events page as JSON built by the database', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database, questionSets: FIXTURE_SETS });
    const [account] = await t.db.insert(accounts).values({ email: EMAIL }).returning();
    const [set] = await t.db.select().from(questionSets).limit(1);
    if (!account || !set) throw new Error('seed failed');
    // Microsecond timestamps and numeric JSON only SQL can write (the columns' types say Date and objects).
    const at = (text: string) => sql`${text}::timestamptz` as unknown as Date;
    const session = (over: Partial<typeof interviewSessions.$inferInsert>) => ({
      id: crypto.randomUUID(),
      accountId: account.id,
      questionSetId: set.id,
      transport: 'openai-realtime',
      createdAt: at('2026-01-02 03:04:05.678901+00'),
      ...over,
    });
    const sessions = [
      // Everything recorded: sub-millisecond times, a half second of length, float cost, numeric usage, errors.
      session({
        status: 'rated',
        turns: TURNS,
        resumes: 1,
        connectedAt: at('2026-01-02 03:04:06.999999+00'),
        endedAt: at('2026-01-02 03:09:07.499500+00'),
        endReason: 'closed-by-interviewer',
        endDetail: 'The candidate answered every question.',
        input: 'voice',
        usage:
          sql`'{"responses": 3, "transcribedSeconds": 12.50, "realtimeModel": "gpt-realtime", "audioInTokens": 1e3}'::jsonb` as unknown as SessionUsage,
        estimatedCostUsd: 0.1 + 0.2,
        errors: [{ at: '2026-01-02T03:05:00.000Z', source: 'openai', code: 'rate_limit', message: 'Slow down.' }],
        errorCount: 21,
      }),
      // Minted only.
      session({ transport: 'browser-speech', createdAt: at('2026-01-02 03:04:05.0005+00') }),
      // Clocks disagreeing: connected before minted, ended before connected (both clamp to 0).
      session({
        status: 'abandoned',
        connectedAt: at('2026-01-02 03:04:05.1+00'),
        endedAt: at('2026-01-02 03:04:04+00'),
        endReason: 'connection-lost',
        input: 'typed',
      }),
      // Connected, still open; ends at x.5 s exactly.
      session({
        status: 'live',
        connectedAt: at('2026-01-02 03:04:06.000+00'),
        endedAt: at('2026-01-02 03:04:08.500+00'),
        estimatedCostUsd: 1e-7,
      }),
    ];
    await t.db.insert(interviewSessions).values(sessions);
    const event = (i: number, over: Partial<typeof events.$inferInsert>) => ({
      eventType: 'RATE',
      accountId: account.id,
      userEmail: EMAIL,
      questionSetId: set.id,
      topic: set.name,
      questionSetIndex: set.index - 1,
      eventTimestamp: sql`timestamptz '2026-01-02 03:04:05.678901+00' + ${i} * interval '1 hour 0.000317 seconds'` as unknown as Date,
      ...over,
    });
    await t.db.insert(events).values([
      event(0, { eventType: 'START', sessionId: sessions[0]?.id }),
      event(1, {
        sessionId: sessions[0]?.id,
        durationSeconds: 300,
        transcript: TURNS,
        ratingStatus: 'rated',
        ratingMarkdown: '## Rating\n"quoted"',
        ratingBreakdown: BREAKDOWN,
        score: 72.3,
        rater: 'rubric',
      }),
      event(2, { eventType: 'START', sessionId: sessions[1]?.id }),
      event(3, { sessionId: sessions[2]?.id, ratingStatus: 'failed', score: null, transcript: [] }),
      event(4, { sessionId: sessions[3]?.id, eventType: 'START' }),
      // A session that is gone, and an event that never had one.
      event(5, { sessionId: crypto.randomUUID(), userEmail: null, topic: null, questionSetIndex: null, questionSetId: null }),
      event(6, { eventTimestamp: at('2026-12-31 23:59:59.999999+00'), score: 0.1, rater: 'llm:gpt-5-mini' }),
      // Longer than the previews: more entries, long texts with characters outside the BMP, long Markdown.
      event(7, {
        transcript: Array.from({ length: 9 }, (_, i) => ({
          role: i % 2 === 0 ? ('interviewer' as const) : ('interviewee' as const),
          transcript: `${i} 😀`.repeat(40 * i),
          ...(i === 1 ? { at: 12, input: 'typed' as const } : {}),
        })),
        ratingMarkdown: '## Long 😀\n'.repeat(60),
        ratingStatus: 'rated',
      }),
      // Exactly the preview's length: nothing is cut.
      event(8, {
        transcript: [{ role: 'interviewee', transcript: 'é'.repeat(300) }],
        ratingMarkdown: '😀'.repeat(300),
      }),
    ]);
  }, 300_000);
  afterAll(() => t.close());

  it('answers every page as the ORM query and the contract encoding did', async () => {
    const all = JSON.parse((await eventsPageJson(t.db, 100, undefined, KEY)).json) as Array<{ id: number }>;
    expect(all).toHaveLength(9);
    expect(all).toStrictEqual(await before(t, 100));
    for (const [limit, cursor] of [
      [1, undefined],
      [3, undefined],
      [2, all[1]?.id],
      [500, all[4]?.id],
      [5, all[6]?.id],
      [5, 1],
    ] as const) {
      expect(JSON.parse((await eventsPageJson(t.db, limit, cursor, KEY)).json), `limit ${limit} before ${cursor}`).toStrictEqual(
        await before(t, limit, cursor),
      );
    }
  });

  it('carries previews: the first entries cut to their length, the Markdown cut, and says so', async () => {
    const [exact, long] = JSON.parse((await eventsPageJson(t.db, 2, undefined, KEY)).json) as AdminEventRow[];
    expect(long?.transcript).toHaveLength(EVENT_PREVIEW_ENTRIES);
    expect(long?.transcript?.map((e) => Array.from(e.transcript).length)).toEqual([0, 120, 240, 300, 300, 300]);
    expect(long?.transcript?.[1]).toMatchObject({ at: 12, input: 'typed' });
    expect(Array.from(long?.ratingMarkdown ?? '')).toHaveLength(EVENT_PREVIEW_CHARS);
    expect(long?.truncated).toBe(true);
    expect(exact).toMatchObject({ truncated: false, ratingMarkdown: '😀'.repeat(300) });
    expect(exact?.transcript?.[0]?.transcript).toBe('é'.repeat(300));
    expect(Object.keys(exact ?? {})).not.toContain('ratingBreakdown');
  });

  it('is accepted unchanged by the contract schema', async () => {
    const answer = JSON.parse((await eventsPageJson(t.db, 100, undefined, KEY)).json) as unknown;
    expect(JSON.parse(JSON.stringify(eventsResponseSchema.parse(answer)))).toStrictEqual(answer);
  });

  it('answers the same bytes over HTTP, with a JSON content type', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/events?limit=4', headers: { 'x-admin-secret': t.config.adminSecret } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe((await eventsPageJson(t.db, 4, undefined, KEY)).json);
    expect(response.json()).toStrictEqual(await before(t, 4));
  });
});
