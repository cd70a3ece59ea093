/**
 * The rater's worker threads (rater-pool.ts): the same judgement as on the calling thread, one task
 * failing does not take the others with it, and a closed pool refuses with a sentence.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogue } from '../catalogue/read-catalogue';
import { loadTranscriptFixture } from '../../test-support/transcripts/load-transcripts';
import type { QuestionSetRecord } from '../db/schema';
import { inThreadRater } from './built-in-rater';
import { createModelAnswerCache } from './model-answer-cache';
import { MODEL_DIR } from './model-files';
import { RATER_THREAD_NICE } from './rater-protocol';
import { createRaterPool, RATER_CLOSED, type RaterPool } from './rater-pool';

const CATALOGUE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../content/question-sets');

let set: QuestionSetRecord;
let pool: RaterPool;
beforeAll(async () => {
  const first = (await readCatalogue(CATALOGUE)).find((s) => s.index === 1)!;
  set = { ...first, id: 1 };
  pool = createRaterPool({ size: 1, modelDir: null });
  await pool.ready();
});
afterAll(() => pool.close());

describe('the rater pool', () => {
  it('rates and judges in a worker exactly as on this thread', async () => {
    const transcripts = loadTranscriptFixture('01-javascript-fundamentals').strong;
    const input = { set, transcripts, durationSeconds: 900 };
    const [inWorker, here] = await Promise.all([pool.rate(input), inThreadRater().rate(input)]);
    expect(inWorker.score).toBeGreaterThan(50);
    expect(inWorker).toEqual(here);
    const answer = { set, questionIndex: 0, turns: [transcripts.find((t) => t.role === 'interviewee')!.transcript] };
    expect(await pool.judge(answer)).toEqual(await inThreadRater().judge(answer));
  });

  it('fails a task that throws with its message, and goes on rating', async () => {
    const broken = { ...set, questions: null as unknown as string[] };
    await expect(pool.rate({ set: broken, transcripts: [], durationSeconds: 0 })).rejects.toThrow(/null/);
    expect((await pool.rate({ set, transcripts: [], durationSeconds: 0 })).score).toBe(0);
  });

  it('lets the task in hand finish when closed (with the sentence model), then ends its thread', async () => {
    // Terminating a worker while onnxruntime-node runs aborts the whole process; closing waits instead.
    const closing = createRaterPool({ size: 1, modelDir: MODEL_DIR });
    await closing.ready();
    const inHand = closing.rate({ set, transcripts: loadTranscriptFixture('01-javascript-fundamentals').strong, durationSeconds: 900 });
    await closing.close();
    expect((await inHand).score).toBeGreaterThan(50);
    await expect(closing.rate({ set, transcripts: [], durationSeconds: 0 })).rejects.toThrow(RATER_CLOSED);
  }, 60_000);

  it('refuses with a sentence once closed, and fails the tasks still waiting', async () => {
    const closing = createRaterPool({ size: 1, modelDir: null });
    const waiting = closing.rate({ set, transcripts: loadTranscriptFixture('01-javascript-fundamentals').strong, durationSeconds: 900 });
    const queued = closing.rate({ set, transcripts: [], durationSeconds: 0 });
    const refused = Promise.all([expect(waiting).rejects.toThrow(RATER_CLOSED), expect(queued).rejects.toThrow(RATER_CLOSED)]);
    await closing.close();
    await refused;
    await expect(closing.judge({ set, questionIndex: 0, turns: ['x'] })).rejects.toThrow(RATER_CLOSED);
  });
});

describe.runIf(process.platform === 'linux')('the worker threads on Linux', () => {
  it('run below the server thread, so a rating yields the cores to requests', () => {
    // /proc/self/task/<tid>/stat: field 19 is the thread's nice value (proc(5)); the server's own
    // threads keep the process's, the pool's worker (started in beforeAll) runs at RATER_THREAD_NICE.
    const nice = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const values = readdirSync('/proc/self/task').map(nice);
    expect(nice(String(process.pid))).toBeLessThan(RATER_THREAD_NICE);
    expect(values.filter((v) => v === RATER_THREAD_NICE).length).toBeGreaterThanOrEqual(1);
  });
});

describe('the parsed model answers', () => {
  it('are parsed once per version of a set', () => {
    const cache = createModelAnswerCache(2);
    const first = cache(set);
    expect(cache({ ...set })).toBe(first);
    const edited = cache({ ...set, modelAnswers: set.modelAnswers.replace('closure', 'closures') });
    expect(edited).not.toBe(first);
    expect(cache({ ...set, modelAnswers: set.modelAnswers.replace('closure', 'closures') })).toBe(edited);
  });

  it('keep at most their limit of sets, the least recently used going first', () => {
    const cache = createModelAnswerCache(2);
    const a = cache({ ...set, id: 1 });
    cache({ ...set, id: 2 });
    expect(cache({ ...set, id: 1 })).toBe(a);
    cache({ ...set, id: 3 });
    expect(cache({ ...set, id: 1 })).toBe(a);
    expect(cache({ ...set, id: 2 })).not.toBe(a);
  });
});
