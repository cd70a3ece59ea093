/**
 * A rater worker thread (rater-pool.ts): loads the sentence model once (when the pool names its
 * folder; RATER_MODEL), then judges one task at a time off the server's event loop: the texts the
 * judge will ask about are embedded first, in one batch, and the synchronous judgement reads their
 * closeness from that lookup (sentence-meaning.ts). Each answer carries its task's id.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { inThreadRater } from './built-in-rater';
import { RATER_THREAD_NICE, type RaterWorkerData, type WorkerMessage, type WorkerReply, type WorkerRequest } from './rater-protocol';
import { loadSentenceEncoder } from './sentence-encoder';

const port = parentPort;
if (!port) throw new Error('rater-worker.ts runs only as a worker thread (rater-pool.ts starts it).');

const { modelDir } = workerData as RaterWorkerData;
// One inference thread: the pool's workers share the machine's cores with the server.
// Start-up checked the files against SHA256SUMS (model-setting.ts): each worker does not hash 23 MB again.
// The model loads at the server's priority, once, and the thread yields only then: a load at nice
// 10 on a busy machine took minutes while every rating waited for it (docs/decisions/032).
const rater = inThreadRater(modelDir === null ? undefined : await loadSentenceEncoder(modelDir, 1, false));
lowerThisThreadsPriority();

/**
 * Linux keeps a nice value per thread, and setpriority(0) sets the calling thread's: this worker
 * thread (and the model's inference, which runs on it with one thread) yields the cores to the
 * server's event loop, so a rating never holds up a request (docs/decisions/028). Elsewhere the
 * same call would lower the whole server, so it is made on Linux only.
 */
function lowerThisThreadsPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(RATER_THREAD_NICE);
  } catch {
    // Not permitted here: rating still works, at the server's own priority.
  }
}

async function run({ id, task }: WorkerRequest): Promise<WorkerReply> {
  try {
    const result = task.kind === 'rate' ? await rater.rate(task.input) : await rater.judge(task.input);
    return { id, ok: true, result };
  } catch (error) {
    return { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

// The task in hand (the pool sends one at a time); a close waits for it.
let inHand: Promise<void> = Promise.resolve();
port.on('message', (message: WorkerMessage) => {
  if ('close' in message) {
    // Ends this thread between tasks (rater-protocol.ts, WorkerClose); only this thread, not the process.
    void inHand.finally(() => process.exit(0));
    return;
  }
  inHand = run(message).then((reply) => port.postMessage(reply));
});
port.postMessage({ ready: true } satisfies WorkerReply);
