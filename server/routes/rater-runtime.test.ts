/**
 * The built-in rater as the server runs it (issue 32): in its worker threads, with the real model
 * files (RATER_MODEL=on, the default), over HTTP on both databases. A rating, "Try an answer" and
 * the scripted interviewer's follow-ups each answer exactly what the same judgement with the same
 * sentence model gives on this thread; RATER_MODEL=off rates with the words alone; a missing or
 * damaged model file stops start-up with a sentence naming it. The model loads once per app.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RatingBreakdown, TranscriptEntry } from '../../contract';
import { call, FIXTURE_SETS, setIds, startInterview } from '../../test-support/fixtures';
import { createTestApp, describeDatabases, type TestApp } from '../../test-support/test-app';
import { inThreadRater, loadSentenceEncoder, MODEL_DIR, type BuiltInRater } from '../rater';
import { createScriptedInterviewer } from '../providers/interviewer/scripted-interviewer';

const ANSWER = 'It is a function that still sees the variables around the place where it was written, even after that code has returned.';
const TRANSCRIPT: TranscriptEntry[] = [
  { role: 'interviewer', transcript: 'What is a closure?' },
  { role: 'interviewee', transcript: ANSWER },
  { role: 'interviewer', transcript: 'How does the event loop work?' },
  { role: 'interviewee', transcript: 'It takes the next task from a queue whenever the call stack is empty.' },
];

interface Rated {
  score: number;
  markdown: string;
  breakdown: RatingBreakdown;
}

let withModel: BuiltInRater;
let wordsAlone: BuiltInRater;
beforeAll(async () => {
  withModel = inThreadRater(await loadSentenceEncoder(MODEL_DIR, 1));
  wordsAlone = inThreadRater();
});

async function rate(t: TestApp, email: string): Promise<{ status: number; body: Rated }> {
  const token = await startInterview(t.app, email);
  const setId = (await setIds(t.app)).get(1)!;
  return call<Rated>(t.app, 'POST', '/interview/rate-transcript', {
    email,
    body: { questionSetId: setId, sessionId: token.sessionId, durationSeconds: 120, transcripts: TRANSCRIPT },
  });
}

describeDatabases('the built-in rater in its worker threads', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database, listen: true, questionSets: FIXTURE_SETS });
  });
  afterAll(() => t.close());

  it('rates an interview as the sentence model and the judgement give it', async () => {
    const setId = (await setIds(t.app)).get(1)!;
    const expected = await withModel.rate({ set: { id: setId, ...FIXTURE_SETS[0]! }, transcripts: TRANSCRIPT, durationSeconds: 120 });
    const rated = await rate(t, 'worker-rating@example.com');
    expect(rated.status).toBe(200);
    expect(rated.body).toMatchObject({ score: expected.score, markdown: expected.markdown, breakdown: expected.breakdown });
  });

  it('tries an answer in the editor with the same judgement', async () => {
    const set = {
      name: 'Closures draft',
      index: 1,
      isPremium: false,
      requiresFeedback: false,
      instructions: '',
      questions: ['What is a closure?'],
      modelAnswers:
        '### 1. What is a closure?\n\nA function with the variables of the scope it was made in.\n\n**Key points:** keeps access to its outer scope; created when the function is defined',
    };
    const tried = await call<{ verdict: string; score: number; covered: string[] }>(t.app, 'POST', '/api/admin/question-sets/try-answer', {
      admin: t.config.adminSecret,
      body: { set, questionNumber: 1, answer: ANSWER },
    });
    expect(tried.status).toBe(200);
    const expected = await withModel.judge({ turns: [ANSWER], set: { id: 0, ...set }, questionIndex: 0 });
    expect(tried.body).toMatchObject({ verdict: expected.verdict, score: expected.score, covered: expected.covered });
  });

  it("asks the scripted interviewer's follow-ups from the same judgement", async () => {
    const email = 'worker-turns@example.com';
    const token = await startInterview(t.app, email);
    const setId = (await setIds(t.app)).get(1)!;
    const history: TranscriptEntry[] = [];
    const reference = createScriptedInterviewer(withModel);
    for (const utterance of [undefined, 'It keeps the variables.', ANSWER]) {
      const turn = await call<{ say: string }>(t.app, 'POST', '/interview/turn', {
        email,
        body: { sessionToken: token.client_secret.value, ...(utterance ? { utterance } : {}) },
      });
      expect(turn.status).toBe(200);
      const expected = await reference.nextTurn({ set: { id: setId, ...FIXTURE_SETS[0]! }, history, ...(utterance ? { utterance } : {}) });
      expect(turn.body.say).toBe(expected.say);
      if (utterance) history.push({ role: 'interviewee', transcript: utterance });
      history.push({ role: 'interviewer', transcript: turn.body.say });
    }
  });
});

describe('RATER_MODEL', () => {
  it('off: rates with the words alone, in the workers', async () => {
    const t = await createTestApp({ database: 'pglite', config: { raterModel: 'off' }, questionSets: FIXTURE_SETS });
    try {
      const setId = (await setIds(t.app)).get(1)!;
      const expected = await wordsAlone.rate({ set: { id: setId, ...FIXTURE_SETS[0]! }, transcripts: TRANSCRIPT, durationSeconds: 120 });
      const rated = await rate(t, 'words-alone@example.com');
      expect(rated.status).toBe(200);
      expect(rated.body).toMatchObject({ score: expected.score, markdown: expected.markdown });
    } finally {
      await t.close();
    }
  });

  describe('a missing or damaged model file stops start-up with a sentence naming it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rater-model-'));
    beforeAll(() => {
      for (const file of readdirSync(MODEL_DIR)) copyFileSync(path.join(MODEL_DIR, file), path.join(dir, file));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a missing file', async () => {
      unlinkSync(path.join(dir, 'tokenizer.json'));
      await expect(createTestApp({ database: 'pglite', config: { raterModel: dir } })).rejects.toThrow(
        `The rater's model file tokenizer.json is missing from ${dir}. Restore the model files (they are part of the repository: server/rater/model/), point RATER_MODEL at a folder that has them, or set RATER_MODEL=off to rate with the word matcher alone.`,
      );
      copyFileSync(path.join(MODEL_DIR, 'tokenizer.json'), path.join(dir, 'tokenizer.json'));
    });

    it('a damaged file', async () => {
      writeFileSync(path.join(dir, 'model.onnx'), 'not a model');
      await expect(createTestApp({ database: 'pglite', config: { raterModel: dir } })).rejects.toThrow(
        `The rater's model file model.onnx in ${dir} is damaged (its SHA-256 does not match SHA256SUMS).`,
      );
    });
  });
});
