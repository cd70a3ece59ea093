/** Scratch: sequential latency of each call, to find server-side costs. */
import { seededDatabase, type DatabaseKind } from './lib/databases';
import { benchCalls } from './lib/http-bench';
import { startBenchServer } from './lib/processes';
import { PLAN_FULL } from './lib/seed';

const kind = (process.argv[2] ?? 'postgres') as DatabaseKind;
const events = Number(process.argv[3] ?? 100_000);
const db = await seededDatabase(kind, { ...PLAN_FULL, events }, console.log);
const server = await startBenchServer({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
try {
  for (const call of benchCalls(server.adminSecret, events)) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 8; i += 1) {
      const t = performance.now();
      const r = await fetch(server.url + call.url, { method: call.method, headers: call.headers, body: call.bodies?.() });
      bytes = (await r.arrayBuffer()).byteLength;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`${call.name}: median ${times[4]?.toFixed(1)} ms, min ${times[0]?.toFixed(1)} ms, ${bytes} bytes`);
  }
} finally {
  await server.stop();
  await db.dispose();
}
