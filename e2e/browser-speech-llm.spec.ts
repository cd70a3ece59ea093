/**
 * Browser-speech mode upgraded by an LLM (LLM_BASE_URL + LLM_MODEL): the real server talks to a
 * local OpenAI-compatible server; Chromium runs the interview by typing. The LLM interviewer
 * closes with the close_session tool and the LLM rater writes the feedback.
 */
import { expect, test } from './support/test';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply, type RecordedRequest } from '../test-support/fake-llm-server';
import { startServer, type RunningServer } from '../test-support/server-process';
import { call, login } from '../test-support/fixtures';

const CLOSING = 'Thank you, that was all. Your written feedback is on its way.';

let llm: FakeLlmServer;
let server: RunningServer;
let set: { id: number; index: number; name: string; questions: string[] };

/** The model: asks two questions, then closes by tool; rates when asked for the schema. */
function model(request: RecordedRequest): FakeReply {
  const messages = request.body.messages as Array<{ role: string; content: string }>;
  if (request.body.response_format) {
    return {
      content: JSON.stringify({
        summary: 'Solid answers on the first two questions.',
        questions: set.questions.map((_, i) => ({
          number: i + 1,
          // Two credits with the candidate's real words, one with an invented quote (dropped).
          credits:
            i === 0
              ? [
                  { keyPoint: 'var is function scoped', quote: 'var is function scoped' },
                  { keyPoint: 'let and const are block scoped', quote: 'Let and const are block scoped' },
                  { keyPoint: 'hoisting and the temporal dead zone', quote: 'let and const wait in the temporal dead zone' },
                ]
              : [],
          feedback: i < 2 ? 'Good.' : 'Not reached.',
        })),
        improvements: ['Cover every question.'],
      }),
    };
  }
  const answers = messages.filter((m) => m.role === 'user').length - 1;
  if (answers === 0) return { content: `Hello! ${set.questions[0]}` };
  if (answers === 1) return { content: `Thanks. ${set.questions[1]}` };
  return { tool: { name: 'close_session', arguments: '{"reason":"the candidate asked to stop"}' }, content: CLOSING };
}

test.beforeAll(async () => {
  llm = await startFakeLlmServer();
  llm.setFallback({ decide: model });
  server = await startServer({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model' } });
  const sets = (await call<Array<typeof set>>(server, 'GET', '/api/question-sets')).body;
  const first = sets.find((s) => s.index === 1);
  if (!first) throw new Error('The catalogue has no set with index 1.');
  set = first;
});

test.afterAll(async () => {
  await server?.stop();
  await llm?.close();
});

test('an LLM interviewer closes by tool and the LLM rater writes the feedback', async ({ page }) => {
  const email = 'llm-typist@example.com';
  await login(server, email);
  await page.addInitScript((e) => window.localStorage.setItem('userEmail', e), email);
  await page.goto(server.url);
  await page.getByTestId(`tile-${set.index}`).click();
  await page.getByRole('button', { name: 'start session' }).click();

  const latest = page.getByTestId('message-card').last();
  await expect(latest).toContainText(`Hello! ${set.questions[0]}`);
  const box = page.getByLabel('Type your answer');
  await box.fill('Let and const are block scoped, var is function scoped.');
  await box.press('Enter');
  await expect(latest).toContainText(`Thanks. ${set.questions[1]}`);
  await box.fill('I would rather stop here, thank you.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(latest).toContainText(CLOSING);

  const overlay = page.getByTestId('results-overlay');
  await expect(overlay.getByText('Feedback written by the language model fake-model; each credited key point was checked')).toBeVisible({
    timeout: 20_000,
  });
  // The server's score from the verified credits: 2 of 5 key points on question 1 of 5.
  await expect(overlay.getByText('Score: 8/100')).toBeVisible();
  await expect(overlay.getByText('You said: "Let and const are block scoped"')).toBeVisible();
  await expect(overlay.getByText('temporal dead zone. You said')).toHaveCount(0);

  // What the browser's answers looked like to the model: the stored history, then the new answer.
  const lastTurn = llm.requests.filter((r) => r.body.tools).at(-1);
  const userLines = (lastTurn?.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').slice(1);
  expect(userLines.map((m) => m.content)).toEqual([
    'Let and const are block scoped, var is function scoped.',
    'I would rather stop here, thank you.',
  ]);
  const events = await call<Array<{ userEmail: string; eventType: string; rater: string | null }>>(server, 'GET', '/api/events', {
    headers: { 'x-admin-secret': server.adminSecret },
  });
  expect(events.body.find((e) => e.userEmail === email && e.eventType === 'RATE')?.rater).toBe('llm:fake-model');
});

test('a line the model is still writing: its first sentence is spoken before the line is whole', async ({ page }) => {
  const email = 'llm-early-voice@example.com';
  await login(server, email);
  await page.addInitScript((e) => {
    window.localStorage.setItem('userEmail', e);
    // The page's voice, recorded: each line it is asked to say (this headless Chromium has no voices).
    const said: string[] = [];
    (window as unknown as { __said: string[] }).__said = said;
    window.speechSynthesis.speak = (utterance: SpeechSynthesisUtterance) => {
      said.push(utterance.text);
      setTimeout(() => utterance.onend?.(new Event('end') as SpeechSynthesisEvent), 200);
    };
  }, email);
  await page.goto(server.url);
  await page.getByTestId(`tile-${set.index}`).click();
  await page.getByRole('button', { name: 'start session' }).click();
  const latest = page.getByTestId('message-card').last();
  await expect(latest).toContainText(`Hello! ${set.questions[0]}`);

  const first = 'That is a clear answer, and the example of the loop helped a lot.';
  const line = `${first} Now, ${set.questions[1]}`;
  let release = (): void => undefined;
  llm.enqueue({ pieces: [`${first} `, 'Now, ', set.questions[1] ?? ''], hold: new Promise<void>((resolve) => (release = resolve)) });
  const box = page.getByLabel('Type your answer');
  await box.fill('Let and const are block scoped, var is function scoped.');
  await box.press('Enter');

  const said = () => page.evaluate(() => (window as unknown as { __said: string[] }).__said);
  await expect.poll(said).toContain(first);
  // Spoken while the model still holds the rest: the line is not on screen yet.
  await expect(page.getByText(line)).toHaveCount(0);
  release();
  await expect(latest).toContainText(line);
  await expect.poll(said).toEqual([`Hello! ${set.questions[0]}`, first, `Now, ${set.questions[1]}`]);
});
