// A rater worker thread's first file (server/rater/rater-pool.ts). Node runs a worker's entry without
// the TypeScript loader the server itself starts with (`node --import tsx`, `tsx`, Vitest), so
// this plain module registers tsx for the thread and then loads the worker (its URL in workerData).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
