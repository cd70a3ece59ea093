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

export type WorkerReply =
  { ready: true } | { id: number; ok: true; result: RatingResult | AnswerJudgement } | { id: number; ok: false; error: string };

/** The nice value of each rater worker thread on Linux (rater-worker.ts): the event loop comes first. */
export const RATER_THREAD_NICE = 10;
