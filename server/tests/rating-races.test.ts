/**
 * One session, one rating (issue 33 items 3 and 10; README, Security and limits), over HTTP on both
 * databases: a rating another server is running is not rated again by a server that starts, two
 * servers rating one session at once give one rating and 409s (never a 500), and a rating racing
 * an abandon ends the session one way only. PGlite has one server per data directory, so there the
 * races run through one server and the start-up case cannot arise.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, FIXTURE_SETS, setIds, startInterview } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { accounts, events, interviewSessions } from '../db/schema';
import { createBrowserSpeechVoice } from '../providers/voice/browser-speech-voice';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';
import type { Rater } from '../providers/types';
import { createRubricRater } from '../rater';
import { RATING_IN_PROGRESS } from '../services/ratings';
import { ALREADY_RATED, NO_OPEN_SESSION } from '../services/sessions';

const transcripts = [
  { role: 'interviewer', transcript: 'What is a closure?' },
  { role: 'interviewee', transcript: 'A closure keeps access to the variables of its outer function.' },
];

/** The rubric rater, counted, and held at a gate while a test wants a rating in flight. */
function gatedRater() {
  const rubric = createRubricRater();
  let gate: Promise<void> = Promise.resolve();
  let open = () => undefined as void;
  const state = {
    calls: 0,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
    rater: {
      async rate(input) {
        state.calls += 1;
        await gate;
        return rubric.rate(input);
      },
    } satisfies Rater,
  };
  return state;
}

describeDatabases('one session, one rating', (database) => {
  const first = gatedRater();
  const second = gatedRater();
  let t: TestApp;
  /** PostgreSQL: a second server process on the same database; PGlite: the same server. */
  let other: TestApp;
  const providers = (r: ReturnType<typeof gatedRater>) => ({
    providers: { voice: createBrowserSpeechVoice(), rater: r.rater, interviewer: createScriptedInterviewer() },
  });

  beforeAll(async () => {
    const config = { freeSessionLimit: 50 };
    t = await createTestApp({ database, questionSets: FIXTURE_SETS, config, deps: providers(first) });
    other =
      database === 'postgres'
        ? await createTestApp({ database, questionSets: FIXTURE_SETS, config, deps: providers(second), postgresUrl: t.databaseUrl })
        : t;
  }, 300_000);
  afterAll(async () => {
    if (other !== t) await other?.close();
    await t?.close();
  });

  const rate = (app: TestApp, email: string, sessionId: string, setId: number) =>
    call<{ id?: number; error?: string }>(app.app, 'POST', '/interview/rate-transcript', {
      email,
      body: { questionSetId: setId, sessionId, durationSeconds: 30, transcripts },
    });
  const rateEvents = (sessionId: string) =>
    t.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.sessionId, sessionId), eq(events.eventType, 'RATE')));

  it('a server that starts while another is rating leaves that rating alone', async ({ skip }) => {
    if (database !== 'postgres') return skip();
    const email = 'mid-rating@example.com';
    const token = await startInterview(t.app, email);
    const setId = (await setIds(t.app)).get(1) ?? -1;
    first.hold();
    const calls = first.calls;
    const rating = rate(t, email, token.sessionId, setId);
    await expect.poll(() => first.calls, { timeout: 10_000 }).toBe(calls + 1);
    // A third server starts on the same database while the rating is pending, and looks for work.
    const third = gatedRater();
    const starting = await createTestApp({ database, questionSets: FIXTURE_SETS, deps: providers(third), postgresUrl: t.databaseUrl });
    try {
      await starting.app.pendingRatingsDone;
      await starting.app.backgroundJobs.runOnce();
      expect(third.calls).toBe(0);
    } finally {
      await starting.close();
    }
    first.release();
    expect((await rating).status).toBe(200);
    expect(await rateEvents(token.sessionId)).toHaveLength(1);
  });

  it('two servers rating one session at once: one rating, the others 409, never a 500', async () => {
    const email = 'two-raters@example.com';
    const setId = (await setIds(t.app)).get(1) ?? -1;
    for (let round = 0; round < 3; round++) {
      const token = await startInterview(t.app, email);
      first.hold();
      second.hold();
      const before = first.calls + second.calls;
      const answers = Promise.all(Array.from({ length: 4 }, (_, i) => rate(i % 2 === 0 ? t : other, email, token.sessionId, setId)));
      await expect.poll(() => first.calls + second.calls, { timeout: 10_000 }).toBeGreaterThan(before);
      first.release();
      second.release();
      const settled = await answers;
      for (const answer of settled) expect([200, 409], JSON.stringify(answer)).toContain(answer.status);
      for (const refused of settled.filter((a) => a.status === 409)) expect(refused.body).toEqual({ error: RATING_IN_PROGRESS });
      const stored = await rateEvents(token.sessionId);
      expect(stored).toHaveLength(1);
      for (const done of settled.filter((a) => a.status === 200)) expect(done.body.id).toBe(stored[0]?.id);
      expect(first.calls + second.calls - before).toBe(1);
      // Afterwards every server answers the one rating.
      expect(await rate(other, email, token.sessionId, setId)).toMatchObject({ status: 200, body: { id: stored[0]?.id } });
    }
  });

  it('a rating racing an abandon: rated and charged, or abandoned and refunded, never both', async () => {
    const setId = (await setIds(t.app)).get(1) ?? -1;
    const outcomes = new Set<string>();
    for (let round = 0; round < 16; round++) {
      const email = `rate-or-abandon-${round}@example.com`;
      const token = await startInterview(t.app, email);
      // The abandon leaves later and later, so both orders are seen.
      const abandonLater = new Promise((resolve) => setTimeout(resolve, (round % 8) * 8));
      const [rated, abandoned] = await Promise.all([
        rate(round % 2 === 0 ? t : other, email, token.sessionId, setId),
        abandonLater.then(() =>
          call<{ creditReturned?: boolean; error?: string }>(
            (round % 2 === 0 ? other : t).app,
            'POST',
            `/interview/sessions/${token.sessionId}/abandon`,
            {
              email,
            },
          ),
        ),
      ]);
      const [session] = await t.db.select().from(interviewSessions).where(eq(interviewSessions.id, token.sessionId));
      const [account] = await t.db.select({ used: accounts.sessionsUsed }).from(accounts).where(eq(accounts.email, email));
      const stored = await rateEvents(token.sessionId);
      expect([rated.status, abandoned.status], JSON.stringify({ rated: rated.body, abandoned: abandoned.body })).not.toContain(500);
      if (rated.status === 200) {
        outcomes.add('rated');
        expect(abandoned).toMatchObject({ status: 409, body: { error: ALREADY_RATED } });
        expect(session).toMatchObject({ status: 'rated', refundedAt: null });
        expect(account?.used).toBe(1);
        expect(stored).toHaveLength(1);
      } else {
        outcomes.add('abandoned');
        expect(rated).toMatchObject({ status: 409, body: { error: NO_OPEN_SESSION } });
        expect(abandoned).toMatchObject({ status: 200, body: { creditReturned: true } });
        expect(session?.status).toBe('abandoned');
        expect(account?.used).toBe(0);
        expect(stored).toHaveLength(0);
      }
    }
    console.log(`rating against abandon (${database}): ${[...outcomes].join(' and ')} seen`);
  });
});
