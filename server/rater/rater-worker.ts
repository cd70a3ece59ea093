/**
 * A rater worker thread (rater-pool.ts): judges one task at a time, off the server's event loop,
 * and answers each with its id. Its judgement is `judgeOnThisThread` (built-in-rater.ts), with this
 * thread's own cache of parsed sets.
 */
import { parentPort } from 'node:worker_threads';
import { judgeOnThisThread } from './built-in-rater';
import type { WorkerReply, WorkerRequest } from './rater-protocol';

const port = parentPort;
if (!port) throw new Error('rater-worker.ts runs only as a worker thread (rater-pool.ts starts it).');

const judge = judgeOnThisThread();

function run(request: WorkerRequest): WorkerReply {
  try {
    const result = request.task.kind === 'rate' ? judge.rate(request.task.input) : judge.judge(request.task.input);
    return { id: request.id, ok: true, result };
  } catch (error) {
    return { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

port.on('message', (request: WorkerRequest) => port.postMessage(run(request)));
port.postMessage({ ready: true } satisfies WorkerReply);
