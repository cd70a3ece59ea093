/**
 * "Try an answer" in the question-set editor, in Chromium against the real server with a local
 * OpenAI-compatible server as the language model: the built-in rater's verdict per key point with
 * "You said", one click that adds a sentence as an "Also accepted" line (and the next try credits
 * it), the language-model rater's credits, "Suggest phrasings" with the operator picking what to
 * add, and nothing stored until "Create set". Without a model the button says why it is unavailable.
 */
import { expect, test } from './support/test';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply, type RecordedRequest } from '../test-support/fake-llm-server';
import { startServer } from '../test-support/server-process';
import { expectAccessible } from './support/a11y';
import { BROWSER_LOCALE, openAdmin, recordDialogs, type RunningServer } from './support/admin';
import { questionSets } from './support/app';

const ANSWERS = [
  '### 1. What is a closure?',
  '',
  'A closure is a function together with the variables of the scope it was created in.',
  '',
  '**Key points:** keeps access to its outer variables; created when the function is defined',
].join('\n');
const OWN_WORDS = 'A closure is a function that still sees the outer scope.';

/** The model: drafts phrasings when asked for them, else rates (crediting the first key point with the candidate's words). */
function model(request: RecordedRequest): FakeReply {
  const format = request.body.response_format as { json_schema?: { name?: string } } | undefined;
  if (format?.json_schema?.name === 'key_point_phrasings') {
    return {
      content: JSON.stringify({
        accepted: ['made when the function is written', 'exists from the definition on'],
        contradicted: ['created every time it is called'],
      }),
    };
  }
  return {
    content: JSON.stringify({
      summary: 'Fine.',
      questions: [{ number: 1, credits: [{ keyPoint: 'keeps access to its outer variables', quote: OWN_WORDS }], feedback: 'Good.' }],
      improvements: [],
    }),
  };
}

let llm: FakeLlmServer;
let server: RunningServer;

test.use(BROWSER_LOCALE);
test.beforeAll(async () => {
  llm = await startFakeLlmServer();
  llm.setFallback({ decide: model });
  server = await startServer({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model' } });
});
test.afterAll(async () => {
  await server?.stop();
  await llm?.close();
});

test('try an answer, add a sentence as Also accepted in one click, pick suggested phrasings, then save', async ({ page }) => {
  const native = recordDialogs(page);
  await openAdmin(page, server, 'question-sets');
  await page.getByRole('button', { name: 'New set' }).click();
  await page.getByLabel('Topic name').fill('Closures');
  await page.getByLabel('Questions (one per line)').fill('What is a closure?');
  const modelAnswers = page.getByLabel(/^Model answers/);
  await modelAnswers.fill(ANSWERS);

  const panel = page.getByRole('region', { name: 'Try an answer' });
  await panel.getByLabel('Answer to try').fill(`${OWN_WORDS} It is created when the function is defined.`);
  await panel.getByRole('button', { name: 'Try answer' }).click();
  await expect(panel.getByText(/^Built-in rater: (Partly answered|Thin answer) · \d+\/100$/)).toBeVisible();
  const outer = panel.getByRole('listitem', { name: 'Key point: keeps access to its outer variables' });
  const defined = panel.getByRole('listitem', { name: 'Key point: created when the function is defined' });
  await expect(defined).toContainText('Credited');
  await expect(defined).toContainText('You said: “It is created when the function is defined.”');
  await expect(outer).toContainText(/Not said|Close, not credited/);
  expect(llm.requests).toHaveLength(0);
  await expectAccessible(page, 'try an answer with its result');

  // One click: the operator's own words become an accepted phrasing of that key point.
  await outer.getByLabel('Statement to add').selectOption(OWN_WORDS);
  await outer.getByRole('button', { name: 'Add as Also accepted' }).click();
  await expect(panel.getByRole('status')).toContainText(`Added "${OWN_WORDS.replace(/\.$/, '')}" to "Also accepted"`);
  await expect(modelAnswers).toHaveValue(
    `${ANSWERS}\n\n**Also accepted:**\n\n- keeps access to its outer variables: ${OWN_WORDS.replace(/\.$/, '')}`,
  );
  // The same line twice is one line.
  await outer.getByRole('button', { name: 'Add as Also accepted' }).click();
  await expect(panel.getByRole('status')).toHaveText('The model answers already hold that for "keeps access to its outer variables".');
  await expect(modelAnswers).toHaveValue(
    `${ANSWERS}\n\n**Also accepted:**\n\n- keeps access to its outer variables: ${OWN_WORDS.replace(/\.$/, '')}`,
  );

  // The next try credits it, and the language-model rater answers beside the built-in one.
  await panel.getByLabel(/^Also ask the language-model rater \(fake-model/).check();
  await panel.getByRole('button', { name: 'Try answer' }).click();
  await expect(panel.getByText(/^Built-in rater: (Answered well|Partly answered) · \d+\/100$/)).toBeVisible();
  await expect(outer).toContainText('Credited');
  await expect(outer).toContainText(`You said: “${OWN_WORDS}”`);
  await expect(panel.getByText('Language-model rater (llm:fake-model): Partly answered · 50/100')).toBeVisible();
  await expect(panel.getByText(`keeps access to its outer variables. You said: “${OWN_WORDS}”`)).toBeVisible();

  // Suggested phrasings are only drafts: the operator ticks what to add.
  await defined.getByRole('button', { name: 'Suggest phrasings' }).click();
  const drafts = defined.getByRole('group', { name: 'Suggested by llm:fake-model: tick the ones to add' });
  await expect(drafts).toBeVisible();
  await expectAccessible(page, 'suggested phrasings');
  await drafts.getByLabel('made when the function is written').check();
  await drafts.getByLabel('created every time it is called').check();
  await drafts.getByRole('button', { name: 'Add the ticked phrasings' }).click();
  await expect(modelAnswers).toHaveValue(
    [
      ANSWERS,
      '',
      '**Also accepted:**',
      '',
      `- keeps access to its outer variables: ${OWN_WORDS.replace(/\.$/, '')}`,
      '- created when the function is defined: made when the function is written',
      '',
      '**Contradicted by:**',
      '',
      '- created when the function is defined: created every time it is called',
    ].join('\n'),
  );
  expect((await questionSets(server)).some((s) => s.name === 'Closures')).toBe(false);

  await page.getByRole('button', { name: 'Create set' }).click();
  await expect(page.getByText('Saved "Closures". Candidates see it now.')).toBeVisible();
  expect((await questionSets(server)).some((s) => s.name === 'Closures')).toBe(true);
  expect(native).toEqual([]);
});

test('without a language model, "Suggest phrasings" says why it is unavailable; the panel fits a phone', async ({ page }, info) => {
  const plain = await startServer();
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await openAdmin(page, plain, 'question-sets');
    await page.getByRole('button', { name: 'New set' }).click();
    await page.getByLabel('Questions (one per line)').fill('What is a closure?');
    await page.getByLabel(/^Model answers/).fill(ANSWERS);
    const panel = page.getByRole('region', { name: 'Try an answer' });
    await expect(panel.getByLabel(/language-model rater/)).toHaveCount(0);
    const suggest = panel
      .getByRole('listitem', { name: 'Key point: created when the function is defined' })
      .getByRole('button', { name: 'Suggest phrasings' });
    await expect(suggest).toHaveAttribute('aria-disabled', 'true');
    await expect(suggest).toHaveAccessibleDescription(/^Suggest phrasings is unavailable: No language model is configured on this server/);
    // Reachable by keyboard, so its explanation is read out; pressing it asks nothing.
    await suggest.focus();
    await page.keyboard.press('Enter');
    await expect(panel.getByRole('group')).toHaveCount(0);

    await panel.getByLabel('Answer to try').fill('It is created when the function is defined. It copies the outer variables.');
    await panel.getByRole('button', { name: 'Try answer' }).click();
    await expect(panel.getByText(/^Built-in rater: /)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await panel.screenshot({ path: info.outputPath('try-answer-390.png') });
    await expectAccessible(page, 'try an answer at 390 px');
  } finally {
    await plain.stop();
  }
});
