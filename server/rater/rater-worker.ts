/**
 * A rater worker thread (rater-pool.ts): loads the sentence model once (when the pool names its
 * folder; RATER_MODEL), then judges one task at a time off the server's event loop: the texts the
 * judge will ask about are embedded first, in one batch, and the synchronous judgement reads their
 * closeness from that lookup (sentence-meaning.ts). Each answer carries its task's id.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { inThreadRater } from './built-in-rater';
import type { RaterWorkerData, WorkerReply, WorkerRequest } from './rater-protocol';
import { loadSentenceEncoder } from './sentence-encoder';

const port = parentPort;
if (!port) throw new Error('rater-worker.ts runs only as a worker thread (rater-pool.ts starts it).');

const { modelDir } = workerData as RaterWorkerData;
// One inference thread: the pool's workers share the machine's cores with the server.
const rater = inThreadRater(modelDir === null ? undefined : await loadSentenceEncoder(modelDir, 1));

async function run({ id, task }: WorkerRequest): Promise<WorkerReply> {
  try {
    const result = task.kind === 'rate' ? await rater.rate(task.input) : await rater.judge(task.input);
    return { id, ok: true, result };
  } catch (error) {
    return { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

port.on('message', (request: WorkerRequest) => void run(request).then((reply) => port.postMessage(reply)));
port.postMessage({ ready: true } satisfies WorkerReply);
