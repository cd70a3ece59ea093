/** The messages between the server and a rater worker (rater-pool.ts, rater-worker.ts). */
import type { RatingResult } from '../providers/types';
import type { AnswerToJudge, InterviewToRate } from './built-in-rater';
import type { AnswerJudgement } from './rubric-rater-judge';

export type RaterTask = { kind: 'rate'; input: InterviewToRate } | { kind: 'judge'; input: AnswerToJudge };

export interface WorkerRequest {
  id: number;
  task: RaterTask;
}

export type WorkerReply =
  { ready: true } | { id: number; ok: true; result: RatingResult | AnswerJudgement } | { id: number; ok: false; error: string };
