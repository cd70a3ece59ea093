/**
 * The speech pipeline after a lost connection (docs/speech-pipeline-mode.md; docs/product-rules.md,
 * Session lifecycle, Reconnecting), with real audio as in speech-pipeline-interview.spec.ts: the
 * candidate's first spoken answer does not get through, the session resumes by itself (no credit),
 * the interviewer's line is said again led by "Welcome back.", the interview goes on by voice and
 * closes, and one rating covers both halves.
 */
import { expect, test } from './support/test';
import { CLOSING_STOP } from '../server/providers/interviewer/scripted-interviewer-lines';
import { WELCOME_BACK } from '../domain/interviewer-protocol';
import { spokenPipelineSuite } from './support/speech-pipeline';
import { call, login, wholeEvent } from '../test-support/fixtures';

const ANSWER = 'A closure is a function that remembers the variables of the scope where it was created.';
const STOP = 'I want to stop.';
// The answer is lost at the drop; the long pause leaves room for the reconnect, a fresh detector
// and the "Welcome back." line before the candidate asks to stop. On a crowded machine the resume
// can still be talking over the first request, so the candidate asks again, as a person would;
// a session already closed by the first hears nothing of the second.
const pipeline = spokenPipelineSuite('speech-pipeline-resume-e2e-mic.wav', [5, ANSWER, 25, STOP, 20, STOP, 40]);

interface EventRow {
  id: number;
  userEmail: string;
  eventType: string;
  transcript: unknown;
}

test('a spoken answer that does not get through: resumed by itself, the line said again, one START, one RATE of both halves', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/^Voice connection failed: /);
  consoleErrors.allow(/^Failed to load resource: net::ERR_FAILED/);
  test.setTimeout(240_000);
  const email = 'voice-resume@example.com';
  await login(pipeline.server, email);
  const sets = (await call<Array<{ index: number; questions: string[] }>>(pipeline.server, 'GET', '/api/question-sets')).body;
  const set = sets.find((s) => s.index === 1);
  if (!set) throw new Error('The catalogue has no set with index 1.');

  // The first piece of the first spoken answer does not get through (as when the network blinks).
  let answers = 0;
  await page.route('**/interview/speech-transcript', async (route) => {
    answers++;
    if (answers === 1) return route.abort('failed');
    return route.continue();
  });
  const resumes: number[] = [];
  page.on('response', (response) => {
    if (/\/interview\/sessions\/[^/]+\/resume$/.test(new URL(response.url()).pathname)) resumes.push(response.status());
  });
  await page.addInitScript((e) => window.localStorage.setItem('userEmail', e), email);
  await page.goto(pipeline.server.url);
  await page.getByTestId(`tile-${set.index}`).click();
  await page.getByRole('button', { name: 'start session' }).click();

  const cards = page.getByTestId('message-card');
  await expect(cards.last()).toContainText(set.questions[0] ?? '<no question>');
  // Resumed without the candidate's help: the opening line again, led by "Welcome back.".
  await expect(cards.last()).toContainText(WELCOME_BACK, { timeout: 80_000 });
  await expect(cards.last()).toContainText(set.questions[0] ?? '<no question>');
  expect(answers).toBe(1);
  expect(resumes).toEqual([200]);
  await expect(page.getByRole('group', { name: 'Connection lost' })).toHaveCount(0);

  // The interview goes on by voice: asking to stop closes it, and it is rated.
  await expect(cards.last()).toContainText(CLOSING_STOP, { timeout: 100_000 });
  await expect(page.getByTestId('results-overlay')).toBeVisible({ timeout: 30_000 });

  const admin = { headers: { 'x-admin-secret': pipeline.server.adminSecret } };
  const events = (await call<EventRow[]>(pipeline.server, 'GET', '/api/events', admin)).body.filter((e) => e.userEmail === email);
  expect(events.map((e) => e.eventType).sort()).toEqual(['RATE', 'START']);
  // The list carries previews: the whole transcript comes with the event's details.
  const rate = await wholeEvent<EventRow>(
    pipeline.server,
    events.find((e) => e.eventType === 'RATE'),
    admin,
  );
  const transcript = (typeof rate?.transcript === 'string' ? JSON.parse(rate.transcript) : rate?.transcript) as Array<{
    role: string;
    transcript: string;
  }>;
  const interviewer = transcript.filter((t) => t.role === 'interviewer').map((t) => t.transcript);
  // Before the drop: the opening; after it: the same line again, then the close.
  expect(interviewer[0]).toContain(set.questions[0] ?? '<no question>');
  expect(interviewer[1]).toBe(`${WELCOME_BACK} ${interviewer[0]}`);
  expect(interviewer.at(-1)).toBe(CLOSING_STOP);
  const said = transcript.filter((t) => t.role === 'interviewee').map((t) => t.transcript.toLowerCase());
  expect(said.at(-1)).toContain('want to stop');
});
