/**
 * Same-work ceilings (PostgreSQL): the product against a bare Fastify + `pg` server running the
 * product's own SQL (bench/same-work-server.ts) for login, the history page, the events page and
 * token minting, in the same run. Optionally a baseline checkout of the product (`--baseline=REF`,
 * any git ref) runs beside them, so a change is measured before and after in one run.
 *
 * The machine is shared, so each call is measured in rounds that alternate the servers' order
 * (product, baseline, ceiling; then the reverse), and the figures add the rounds up.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { seededDatabase } from '../lib/databases';
import { hammer, type CallSpec, type Figures } from '../lib/http-bench';
import { ROOT, rssMb, spawnListening, startBenchServer, type BenchServer } from '../lib/processes';
import { BIG_ACCOUNT, PLAN_FULL, REGULAR_USERS, seededEmail } from '../lib/seed';

export interface SameWorkCall {
  name: string;
  product: Figures;
  baseline?: Figures;
  ceiling: Figures;
  /** product req/s ÷ ceiling req/s */
  ratio: number;
  baselineRatio?: number;
  /** The product's answer equals the ceiling's (token minting: same shape, both 200). */
  sameAnswer: boolean;
}

export interface SameWorkResult {
  events: number;
  rounds: number;
  seconds: number;
  connections: number;
  baseline: string | null;
  baselineEnv?: Record<string, string>;
  calls: SameWorkCall[];
  productRssMb: number;
  /** 1-minute load average at the start and the end of the part (the machine may be shared). */
  loadAverage?: [number, number];
}

interface Target {
  name: string;
  url: string;
  stop(): Promise<void>;
}

async function startCeiling(databaseUrl: string, adminSecret: string): Promise<Target> {
  const server = await spawnListening('bench/same-work-server.ts', [databaseUrl, adminSecret]);
  return { name: 'ceiling', url: server.url, stop: server.stop };
}

/** The product as it was at `ref`, unpacked beside this checkout and sharing its node_modules. */
function checkout(ref: string): { dir: string; dispose(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-baseline-'));
  execFileSync('sh', ['-c', `git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(dir)}`], { cwd: ROOT });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

function calls(adminSecret: string, firstSetId: number): CallSpec[] {
  let nextLogin = 0;
  let nextMint = 0;
  return [
    {
      name: 'POST /user/login',
      method: 'POST',
      url: '/user/login',
      headers: { 'content-type': 'application/json' },
      bodies: () => JSON.stringify({ email: seededEmail(2 + (nextLogin++ % REGULAR_USERS)) }),
    },
    {
      name: 'GET /user/ratings (page 50, limit 9)',
      method: 'GET',
      url: '/user/ratings?page=50&limit=9',
      headers: { 'x-user-email': BIG_ACCOUNT },
    },
    { name: 'GET /api/events (first page)', method: 'GET', url: '/api/events', headers: { 'x-admin-secret': adminSecret } },
    {
      name: 'GET /interview/token',
      method: 'GET',
      url: `/interview/token?questionSetId=${firstSetId}`,
      headers: { 'x-user-email': seededEmail(2) },
      // Each mint is another user's (autocannon sends the same path; the header rotates).
      headersFor: () => ({ 'x-user-email': seededEmail(2 + (nextMint++ % REGULAR_USERS)) }),
    },
  ];
}

/** The same request (same body and headers) to every target. */
async function answers(targets: Target[], call: CallSpec): Promise<Array<{ status: number; body: unknown }>> {
  const init = { method: call.method, headers: { ...call.headers, ...call.headersFor?.() }, body: call.bodies?.() };
  const out = [];
  for (const target of targets) {
    const response = await fetch(target.url + call.url, init);
    out.push({ status: response.status, body: (await response.json()) as unknown });
  }
  return out;
}

function sum(rounds: Figures[]): Figures {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return {
    rps: rounds.reduce((n, r) => n + r.rps, 0) / rounds.length,
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    requests: rounds.reduce((n, r) => n + r.requests, 0),
  };
}

/** The run's shape as the result reports it (`baselineEnv`: extra settings for the baseline, e.g. LOG_LEVEL=warn to price logging). */
type SameWorkOptions = Pick<SameWorkResult, 'events' | 'rounds' | 'seconds' | 'connections' | 'baseline' | 'baselineEnv'> & {
  /** Only the calls whose name contains one of these (default all). */
  calls?: string[];
  log: (line: string) => void;
};

export async function runSameWork(options: SameWorkOptions): Promise<SameWorkResult> {
  const loadAtStart = loadavg()[0] ?? 0;
  const database = await seededDatabase('postgres', { ...PLAN_FULL, events: options.events }, options.log);
  const databaseUrl = database.databaseUrl ?? '';
  const started: Array<{ stop(): Promise<void> }> = [];
  const base = options.baseline ? checkout(options.baseline) : null;
  try {
    // Every account may mint without running out: the product and the ceiling spend the same way.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('update accounts set session_limit = 1000000000');
    const firstSetId = Number((await client.query<{ id: number }>('select id from question_sets where index = 1')).rows[0]?.id);
    await client.end();

    const product = await startBenchServer({ dataDir: database.dataDir, databaseUrl });
    started.push(product);
    const targets: Array<Target & { server?: BenchServer }> = [{ name: 'product', url: product.url, stop: product.stop, server: product }];
    if (base) {
      const dataDir = path.join(database.dataDir, 'baseline');
      mkdirSync(dataDir);
      const baseline = await startBenchServer({ dataDir, databaseUrl, root: base.dir, env: options.baselineEnv });
      started.push(baseline);
      targets.push({ name: 'baseline', url: baseline.url, stop: baseline.stop });
    }
    const ceiling = await startCeiling(databaseUrl, product.adminSecret);
    started.push(ceiling);
    targets.push(ceiling);
    options.log(
      `same-work: product${base ? `, baseline ${options.baseline}` : ''} and ceiling up; ${options.rounds} rounds of ${options.seconds} s per server and call`,
    );

    const results: SameWorkCall[] = [];
    const chosen = calls(product.adminSecret, firstSetId).filter(
      (c) => !options.calls || options.calls.some((part) => c.name.includes(part)),
    );
    for (const call of chosen) {
      const replies = await answers(targets, call);
      const [mine, ...others] = replies;
      const sameAnswer = call.name.includes('token')
        ? replies.every(
            (a) => a.status === 200 && isDeepStrictEqual(Object.keys(a.body as object).sort(), Object.keys(mine?.body as object).sort()),
          )
        : others.every((a) => a.status === mine?.status && isDeepStrictEqual(a.body, mine?.body));
      if (!sameAnswer) options.log(`  ${call.name}: the answers differ: ${JSON.stringify(replies).slice(0, 600)}`);
      for (const t of targets) await hammer(t.url, call, 1, options.connections);
      const figures = new Map<string, Figures[]>(targets.map((t) => [t.name, []]));
      for (let round = 0; round < options.rounds; round += 1) {
        const order = round % 2 === 0 ? targets : [...targets].reverse();
        for (const t of order) figures.get(t.name)?.push(await hammer(t.url, call, options.seconds, options.connections));
      }
      const of = (name: string) => sum(figures.get(name) ?? []);
      const result: SameWorkCall = { name: call.name, product: of('product'), ceiling: of('ceiling'), ratio: 0, sameAnswer };
      result.ratio = result.product.rps / result.ceiling.rps;
      if (base) {
        result.baseline = of('baseline');
        result.baselineRatio = result.baseline.rps / result.ceiling.rps;
      }
      results.push(result);
      options.log(
        `  ${call.name}: product ${result.product.rps.toFixed(0)} req/s (p50 ${result.product.p50}, p99 ${result.product.p99} ms)` +
          (result.baseline ? `, baseline ${result.baseline.rps.toFixed(0)} (ratio ${result.baselineRatio?.toFixed(2)})` : '') +
          `, ceiling ${result.ceiling.rps.toFixed(0)} (p99 ${result.ceiling.p99} ms); ratio ${result.ratio.toFixed(2)}; same answer ${sameAnswer}`,
      );
    }
    return {
      events: options.events,
      rounds: options.rounds,
      seconds: options.seconds,
      connections: options.connections,
      baseline: options.baseline,
      baselineEnv: options.baselineEnv,
      calls: results,
      productRssMb: rssMb(product.serverPid),
      loadAverage: [loadAtStart, loadavg()[0] ?? 0],
    };
  } finally {
    for (const s of started.reverse()) await s.stop();
    base?.dispose();
    await database.dispose();
  }
}
