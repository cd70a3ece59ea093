/**
 * What the typed-interview specs answer with, and how they make Chromium type: the catalogue's
 * first set with a strong answer per question (its model answer's own words), and a browser that
 * cannot recognise speech (Chromium's recogniser needs Google's cloud), so the app asks for typing.
 */
import type { Page } from '@playwright/test';
import { splitModelAnswers } from '../../server/catalogue/model-answers';
import { call } from '../../test-support/fixtures';

export interface SetInfo {
  id: number;
  name: string;
  index: number;
  questions: string[];
  modelAnswers: string | null;
}

/** The set with index 1 and, per question, its model answer and key points flattened to one paragraph. */
export async function firstSetWithStrongAnswers(server: { url: string }): Promise<{ set: SetInfo; answers: string[] }> {
  const sets = (await call<SetInfo[]>(server, 'GET', '/api/question-sets')).body;
  const set = sets.find((s) => s.index === 1);
  if (!set?.modelAnswers) throw new Error('The catalogue has no set with index 1 and model answers.');
  const answers = splitModelAnswers(set.modelAnswers, set.questions.length).map((a) =>
    `${a.answer} ${a.keyPoints.join('. ')}`
      .replace(/[`*#>_-]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return { set, answers };
}

/** From the next page load on, the page has no speech recogniser: answers are typed. */
export async function withoutSpeechRecognition(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    w.SpeechRecognition = undefined;
    w.webkitSpeechRecognition = undefined;
  });
}
