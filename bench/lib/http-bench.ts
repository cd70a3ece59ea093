/**
 * One load pass: record each call's answer from the real server, start the ceiling (the same
 * bytes from memory), then for each call run autocannon against the server and the ceiling
 * back to back, so both see the same machine noise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { rssMb, startCeiling, type BenchServer, type CeilingRoute } from './processes';
import { BIG_ACCOUNT, REGULAR_USERS, seededEmail } from './seed';

export interface CallSpec {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** POST bodies; rotated per request (e.g. logins of different accounts). */
  bodies?: () => string;
  /** Headers that change per request (e.g. each token mint for another user). */
  headersFor?: () => Record<string, string>;
}

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

export interface CallResult {
  name: string;
  bytes: number;
  server: Figures;
  ceiling: Figures;
  ratio: number;
}

export interface PassResult {
  database: 'pglite' | 'postgres';
  events: number;
  rssAfterStartMb: number;
  rssAfterLoadMb: number;
  calls: CallResult[];
}

export function benchCalls(adminSecret: string, eventCount: number): CallSpec[] {
  const admin = { 'x-admin-secret': adminSecret };
  let next = 0;
  return [
    { name: 'GET /api/question-sets', method: 'GET', url: '/api/question-sets', headers: {} },
    {
      name: 'POST /user/login',
      method: 'POST',
      url: '/user/login',
      headers: { 'content-type': 'application/json' },
      // Every request logs in another of the regular users (each has exactly 10 rated interviews).
      bodies: () => JSON.stringify({ email: seededEmail(2 + (next++ % REGULAR_USERS)) }),
    },
    {
      name: 'GET /user/ratings (page 50, limit 9)',
      method: 'GET',
      url: '/user/ratings?page=50&limit=9',
      headers: { 'x-user-email': BIG_ACCOUNT, 'content-type': 'application/json' },
    },
    { name: 'GET /api/events (first page)', method: 'GET', url: '/api/events', headers: admin },
    {
      name: 'GET /api/events (deep cursor)',
      method: 'GET',
      // 90% of the table is newer than the cursor.
      url: `/api/events?before=${Math.floor(eventCount / 10)}`,
      headers: admin,
    },
    { name: 'GET /api/interview-stats', method: 'GET', url: '/api/interview-stats', headers: admin },
    { name: 'GET /api/feedback', method: 'GET', url: '/api/feedback', headers: admin },
  ];
}

async function record(baseUrl: string, call: CallSpec): Promise<CeilingRoute> {
  const response = await fetch(baseUrl + call.url, { method: call.method, headers: call.headers, body: call.bodies?.() });
  const body = await response.text();
  if (!response.ok) throw new Error(`${call.name} answered ${response.status}: ${body.slice(0, 300)}`);
  return {
    method: call.method,
    url: call.url,
    status: response.status,
    contentType: response.headers.get('content-type') ?? 'application/json',
    body,
  };
}

export async function hammer(baseUrl: string, call: CallSpec, seconds: number, connections: number): Promise<Figures> {
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        method: call.method,
        path: call.url,
        headers: call.headers,
        ...(call.bodies || call.headersFor
          ? {
              setupRequest: (request) => ({
                ...request,
                ...(call.bodies ? { body: call.bodies() } : {}),
                ...(call.headersFor ? { headers: { ...call.headers, ...call.headersFor() } } : {}),
              }),
            }
          : {}),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

export async function runPass(
  server: BenchServer,
  options: {
    database: 'pglite' | 'postgres';
    events: number;
    accounts: number;
    seconds: number;
    connections: number;
    log: (line: string) => void;
  },
): Promise<PassResult> {
  const calls = benchCalls(server.adminSecret, options.events);
  const rssAfterStartMb = rssMb(server.serverPid);
  const routes: CeilingRoute[] = [];
  for (const call of calls) routes.push(await record(server.url, call));
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-ceiling-'));
  const ceiling = await startCeiling(routes, path.join(dir, 'routes.json'));
  const results: CallResult[] = [];
  try {
    for (const [i, call] of calls.entries()) {
      // A short warm-up of both so the JIT and the database caches are not what we measure.
      await hammer(server.url, call, 1, options.connections);
      await hammer(ceiling.url, call, 1, options.connections);
      const real = await hammer(server.url, call, options.seconds, options.connections);
      const bare = await hammer(ceiling.url, call, options.seconds, options.connections);
      const result: CallResult = {
        name: call.name,
        bytes: Buffer.byteLength(routes[i]?.body ?? ''),
        server: real,
        ceiling: bare,
        ratio: real.rps / bare.rps,
      };
      results.push(result);
      options.log(
        `  ${call.name}: ${real.rps.toFixed(0)} req/s (ceiling ${bare.rps.toFixed(0)}, ratio ${result.ratio.toFixed(2)}), p50 ${real.p50} ms, p99 ${real.p99} ms, errors ${real.errors}, non-2xx ${real.non2xx}`,
      );
    }
  } finally {
    await ceiling.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { database: options.database, events: options.events, rssAfterStartMb, rssAfterLoadMb: rssMb(server.serverPid), calls: results };
}
