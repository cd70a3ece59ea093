/**
 * Profiles the real server under one call's load: `tsx bench/profile.ts [postgres|pglite] [call-index] [seconds]`
 * writes a V8 CPU profile of the server process and prints the functions with the most self time.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededDatabase, type DatabaseKind } from './lib/databases';
import { benchCalls, hammer } from './lib/http-bench';
import { startBenchServer } from './lib/processes';
import { PLAN_FULL } from './lib/seed';

const kind = (process.argv[2] ?? 'postgres') as DatabaseKind;
const index = Number(process.argv[3] ?? 2);
const seconds = Number(process.argv[4] ?? 5);
const events = 10_000;
const profDir = mkdtempSync(path.join(tmpdir(), 'bench-prof-'));
const db = await seededDatabase(kind, { ...PLAN_FULL, events }, console.log);
const server = await startBenchServer({
  dataDir: db.dataDir,
  databaseUrl: db.databaseUrl,
  env: { NODE_OPTIONS: `--import ${path.resolve('bench/cpu-profile-preload.mjs')}`, BENCH_PROFILE_DIR: profDir },
});
const call = benchCalls(server.adminSecret, events)[index];
if (!call) throw new Error('no such call');
try {
  console.log(call.name, await hammer(server.url, call, seconds, 50));
} finally {
  await server.stop();
  await db.dispose();
}
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
const files = readdirSync(profDir).map((f) => path.join(profDir, f));
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (const id of profile.samples) {
    const f = byId.get(id)?.callFrame;
    const key = f
      ? `${f.functionName || '(anon)'} ${f.url.replace(/.*node_modules\//, '').replace(/^file:\/\/\/work\/main\//, '')}:${f.lineNumber}`
      : '?';
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length;
  if (total < 100) continue;
  // Self time per package (node_modules/<pkg>), our code, node internals, idle and GC.
  const byPackage = new Map<string, number>();
  for (const id of profile.samples) {
    const f = byId.get(id)?.callFrame;
    const url = f?.url ?? '';
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      (url.startsWith('node:') ? 'node internals' : url ? 'our code' : f?.functionName || '?');
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1);
  }
  console.log(
    `${path.basename(file)} by package: ${[...byPackage]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 14)
      .map(([k, v]) => `${k} ${((v / total) * 100).toFixed(1)}%`)
      .join(', ')}`,
  );
  console.log(`${path.basename(file)}: ${total} samples`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${((v / total) * 100).toFixed(1)}% ${k}`);
}
rmSync(profDir, { recursive: true, force: true });
