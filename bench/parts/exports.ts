/**
 * Streamed CSV exports in constant memory: GET /api/admin/exports/ratings.csv against the real
 * server process with 10,000, 100,000 and 200,000 rated events (each with a ~1.5 KB transcript),
 * while the server's RSS is sampled every 25 ms. An export built in memory would add at least the
 * file to the RSS (165 MB of CSV at 100,000 events, 330 MB at 200,000); a streamed one reaches the
 * same peak whatever the table size (the growth over the idle server is garbage the collector
 * lets build up while rows fly by, not rows kept).
 */
import { seededDatabase, type DatabaseKind } from '../lib/databases';
import { rssMb, startBenchServer, type BenchServer } from '../lib/processes';
import { PLAN_FULL } from '../lib/seed';

export interface ExportRun {
  database: DatabaseKind;
  events: number;
  bytes: number;
  rows: number;
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

export interface ExportsResult {
  runs: ExportRun[];
  /** How much the peak RSS may rise when the table doubles (100,000 -> 200,000 events). */
  maxPeakRiseMb: number;
}

export const MAX_PEAK_RISE_MB = 32;

async function measure(server: BenchServer, database: DatabaseKind, events: number): Promise<ExportRun> {
  // One small call first, so the baseline includes the warmed-up route and database connection.
  await fetch(`${server.url}/api/interview-stats`, { headers: { 'x-admin-secret': server.adminSecret } });
  const rssBeforeMb = rssMb(server.serverPid);
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, rssMb(server.serverPid));
  }, 25);
  const started = performance.now();
  let bytes = 0;
  let rows = 0;
  try {
    const response = await fetch(`${server.url}/api/admin/exports/ratings.csv`, { headers: { 'x-admin-secret': server.adminSecret } });
    if (response.status !== 200 || !response.body) throw new Error(`the export answered ${response.status}`);
    const decoder = new TextDecoder();
    let tail = '';
    const reader = response.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      const chunk = part.value;
      bytes += chunk.byteLength;
      // Records start with their id; a transcript line inside a quoted cell never does.
      const text = tail + decoder.decode(chunk, { stream: true });
      const lines = text.split('\r\n');
      tail = lines.pop() ?? '';
      rows += lines.filter((line) => /^\d+,/.test(line)).length;
    }
  } finally {
    clearInterval(sampler);
  }
  return { database, events, bytes, rows, seconds: (performance.now() - started) / 1000, rssBeforeMb, rssPeakMb };
}

export async function runExports(databases: DatabaseKind[], sizes: number[], log: (line: string) => void): Promise<ExportsResult> {
  const runs: ExportRun[] = [];
  for (const kind of databases) {
    for (const events of sizes) {
      log(`exports: ${kind}, ${events} events: seeding`);
      const database = await seededDatabase(kind, { ...PLAN_FULL, events }, log);
      try {
        const server = await startBenchServer({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
        try {
          const run = await measure(server, kind, events);
          log(
            `exports: ${kind}, ${events} events: ${run.rows} rows, ${(run.bytes / 1e6).toFixed(0)} MB in ${run.seconds.toFixed(1)} s, RSS ${run.rssBeforeMb.toFixed(0)} -> peak ${run.rssPeakMb.toFixed(0)} MB`,
          );
          runs.push(run);
        } finally {
          await server.stop();
        }
      } finally {
        await database.dispose();
      }
    }
  }
  return { runs, maxPeakRiseMb: MAX_PEAK_RISE_MB };
}
