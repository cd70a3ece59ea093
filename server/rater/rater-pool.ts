/**
 * The built-in rater off the event loop (issue 32, docs/decisions/028-rater-in-worker-threads.md):
 * a few worker threads, created with the app (`buildApp` names the pool on the application
 * context as `rater`, starts the workers once the server listens, `warm`) and closed with it. Each
 * worker loads the rater and its sentence model once and judges one task at a time; tasks wait in
 * order for the first free worker, and a task that arrives before the workers have loaded waits
 * for them (a pool nobody warmed starts its workers at its first task). A worker that dies takes only its own task with it: the
 * task fails with a sentence (a rating is then retried, services/ratings.ts) and a new worker
 * takes its place.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { RatingResult } from '../providers/types';
import type { AnswerToJudge, BuiltInRater, InterviewToRate } from './built-in-rater';
import type { RaterTask, RaterWorkerData, WorkerClose, WorkerReply, WorkerRequest } from './rater-protocol';
import type { AnswerJudgement } from './rubric-rater-judge';

/** Two workers at most: one long rating (a pathological transcript takes seconds) does not hold up the next. */
export const MAX_RATER_WORKERS = 2;

export const RATER_STOPPED = 'The built-in rater stopped while it was rating this interview; it will be rated again.';
export const RATER_CLOSED = 'The server is shutting down, so the built-in rater is not rating any more.';
export const RATER_FAILED_TO_LOAD = 'The built-in rater could not be loaded, so it cannot rate.';

const BOOT = new URL('./rater-worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./rater-worker.ts', import.meta.url).href;

export interface RaterPool extends BuiltInRater {
  /** Starts the workers loading, if they have not started. */
  warm(): void;
  /** Starts the workers; resolves when every one has loaded the rater, rejects with the sentence when one cannot. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface RaterPoolOptions {
  /** The sentence model's folder (checked at start-up: checkModelFiles); null: the words alone (RATER_MODEL=off). */
  modelDir: string | null;
  /** Default: one less than the cores, at least 1, at most MAX_RATER_WORKERS. */
  size?: number;
  /** Told when a worker dies or cannot load (for the log). */
  onWorkerError?: (error: Error) => void;
}

interface Pending {
  request: WorkerRequest;
  resolve: (value: RatingResult | AnswerJudgement) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy: Pending | null;
}

export function defaultRaterWorkers(): number {
  return Math.max(1, Math.min(MAX_RATER_WORKERS, availableParallelism() - 1));
}

/** How long a closing pool waits for a worker to finish its task in hand before it terminates it. */
export const CLOSE_GRACE_MS = 30_000;

/**
 * Asks a worker to end once its task in hand is done, and waits for it to exit. Terminating a
 * worker while onnxruntime-node loads or runs the model aborts the whole process ("terminate
 * called after throwing an instance of 'Napi::Error'", seen in CI), so it is the last resort.
 */
function endWorker(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    const lastResort = setTimeout(() => void worker.terminate().then(() => resolve()), CLOSE_GRACE_MS);
    lastResort.unref();
    worker.once('exit', () => {
      clearTimeout(lastResort);
      resolve();
    });
    worker.postMessage({ close: true } satisfies WorkerClose);
  });
}

export function createRaterPool(options: RaterPoolOptions): RaterPool {
  const size = options.size ?? defaultRaterWorkers();
  const queue: Pending[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;
  let broken: Error | null = null;
  let readyCount = 0;
  let settleReady: { resolve: () => void; reject: (error: Error) => void } | null = null;
  const allReady = new Promise<void>((resolve, reject) => (settleReady = { resolve, reject }));
  // Nobody may ask for ready(); its failure is reported through the tasks and onWorkerError.
  allReady.catch(() => undefined);

  const failAll = (error: Error) => {
    for (const pending of queue.splice(0)) pending.reject(error);
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (!slot.ready || slot.busy) continue;
      const next = queue.shift();
      if (!next) return;
      slot.busy = next;
      slot.worker.postMessage(next.request);
    }
  };

  const spawn = (): Slot => {
    const worker = new Worker(BOOT, { workerData: { entry: ENTRY, modelDir: options.modelDir } satisfies RaterWorkerData });
    // The workers never keep the process alive by themselves: the server (or a failed start) decides when it ends.
    worker.unref();
    const slot: Slot = { worker, ready: false, busy: null };
    worker.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) {
        slot.ready = true;
        readyCount += 1;
        if (readyCount === size) settleReady?.resolve();
        dispatch();
        return;
      }
      const pending = slot.busy;
      slot.busy = null;
      if (pending && pending.request.id === reply.id) {
        if (reply.ok) pending.resolve(reply.result);
        else pending.reject(new Error(reply.error));
      }
      dispatch();
    });
    worker.on('error', (error) => options.onWorkerError?.(error));
    worker.on('exit', () => {
      const index = slots.indexOf(slot);
      if (index >= 0) slots.splice(index, 1);
      slot.busy?.reject(new Error(closed ? RATER_CLOSED : RATER_STOPPED));
      slot.busy = null;
      if (closed) return;
      if (!slot.ready) {
        // It never loaded: another would not either (a broken install); every task fails with the sentence.
        broken = new Error(RATER_FAILED_TO_LOAD);
        settleReady?.reject(broken);
        failAll(broken);
        return;
      }
      readyCount -= 1;
      slots.push(spawn());
    });
    return slot;
  };

  let started = false;
  const warm = () => {
    if (started || closed) return;
    started = true;
    for (let i = 0; i < size; i += 1) slots.push(spawn());
  };

  const submit = <T extends RatingResult | AnswerJudgement>(task: RaterTask): Promise<T> => {
    if (closed) return Promise.reject(new Error(RATER_CLOSED));
    if (broken) return Promise.reject(broken);
    warm();
    return new Promise<T>((resolve, reject) => {
      queue.push({ request: { id: nextId++, task }, resolve: resolve as Pending['resolve'], reject });
      dispatch();
    });
  };

  return {
    rate: (input: InterviewToRate) => submit<RatingResult>({ kind: 'rate', input }),
    judge: (input: AnswerToJudge) => submit<AnswerJudgement>({ kind: 'judge', input }),
    warm,
    ready: () => {
      warm();
      return allReady;
    },
    async close() {
      if (closed) return;
      closed = true;
      failAll(new Error(RATER_CLOSED));
      await Promise.all(slots.map((slot) => endWorker(slot.worker)));
    },
  };
}
