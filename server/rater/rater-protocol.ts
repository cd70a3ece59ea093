/** The messages between the server and a rater worker (rater-pool.ts, rater-worker.ts). */
import type { RatingResult } from '../providers/types';
import type { AnswerToJudge, InterviewToRate } from './built-in-rater';
import type { AnswerJudgement } from './rubric-rater-judge';

/** What a worker is started with: the sentence model's folder, or null for the words alone (RATER_MODEL=off). */
export interface RaterWorkerData {
  entry: string;
  modelDir: string | null;
}

export type RaterTask = { kind: 'rate'; input: InterviewToRate } | { kind: 'judge'; input: AnswerToJudge };

export interface WorkerRequest {
  id: number;
  task: RaterTask;
}

/**
 * The pool is closing: the worker ends its thread once the task in hand is done (never while the
 * model runs: a worker terminated while onnxruntime-node works natively aborts the whole process).
 */
export interface WorkerClose {
  close: true;
}

export type WorkerMessage = WorkerRequest | WorkerClose;

export type WorkerReply =
  { ready: true } | { id: number; ok: true; result: RatingResult | AnswerJudgement } | { id: number; ok: false; error: string };

/** The nice value of each rater worker thread on Linux (rater-worker.ts): the event loop comes first. */
export const RATER_THREAD_NICE = 10;
