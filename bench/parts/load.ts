/**
 * Load with no lost writes: 200 concurrent clients of mixed traffic (logins, feedback posts,
 * token + rated transcript) against the real server for 30 s; then, with the server stopped,
 * every acknowledged feedback and rating must be in the database exactly as acknowledged.
 */
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client';
import { events, feedback } from '../../server/db/schema';
import { seededDatabase, type DatabaseKind } from '../lib/databases';
import { startBenchServer, rssMb } from '../lib/processes';

export interface LoadResult {
  database: DatabaseKind;
  clients: number;
  seconds: number;
  requests: number;
  byKind: Record<string, number>;
  statuses: Record<string, number>;
  serverErrors: number;
  networkErrors: number;
  acknowledgedFeedback: number;
  acknowledgedRatings: number;
  missingFeedback: number;
  missingRatings: number;
  /** Server RSS once it is up, before any request (absent in figures from before it was recorded). */
  rssAfterStartMb?: number;
  rssAfterMb: number;
  pass: boolean;
}

const TRANSCRIPT = [
  { role: 'interviewer', transcript: 'What is a closure in JavaScript, and when have you used one?', at: 1_000 },
  {
    role: 'interviewee',
    transcript:
      'A closure is a function that keeps access to the variables of the scope it was created in. I used one for a memoised fetch helper that kept its cache private.',
    at: 9_000,
  },
  { role: 'interviewer', transcript: 'How does the event loop order promises and timers?', at: 30_000 },
  {
    role: 'interviewee',
    transcript:
      'Microtasks such as promise callbacks run after the current task and before the next timer, so a resolved promise runs before a zero timeout.',
    at: 38_000,
  },
];

export async function runLoad(options: {
  database: DatabaseKind;
  clients: number;
  seconds: number;
  log: (line: string) => void;
}): Promise<LoadResult> {
  const db = await seededDatabase(
    options.database,
    { accounts: options.clients, events: 0, bigAccountRatings: 0, feedback: 0 },
    options.log,
  );
  try {
    // Enough credits for a 30 s run; the plan defaults (5 free) would answer 402 after five.
    const server = await startBenchServer({
      dataDir: db.dataDir,
      databaseUrl: db.databaseUrl,
      env: { FREE_SESSION_LIMIT: '1000000', PRO_SESSION_LIMIT: '1000000' },
    });
    const acked = { feedback: new Map<number, string>(), ratings: new Map<number, string>() };
    const statuses: Record<string, number> = {};
    const byKind: Record<string, number> = { login: 0, feedback: 0, token: 0, rate: 0 };
    let networkErrors = 0;
    let requests = 0;
    let rssAfterMb = 0;
    const rssAfterStartMb = rssMb(server.serverPid);
    try {
      const sets = (await (await fetch(`${server.url}/api/question-sets`)).json()) as Array<{ id: number; index: number }>;
      const first = sets.find((s) => s.index === 1);
      if (!first) throw new Error('no question set with index 1');
      const call = async (kind: string, url: string, init: RequestInit): Promise<Response | null> => {
        requests += 1;
        byKind[kind] = (byKind[kind] ?? 0) + 1;
        try {
          const response = await fetch(server.url + url, init);
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          return response;
        } catch {
          networkErrors += 1;
          return null;
        }
      };
      const deadline = Date.now() + options.seconds * 1000;
      const client = async (n: number) => {
        const email = n === 0 ? 'big@bench.example' : `user-${String(n + 1).padStart(5, '0')}@bench.example`;
        const json = { 'content-type': 'application/json' };
        const user = { 'x-user-email': email };
        for (let i = 0; Date.now() < deadline; i += 1) {
          const pick = (n + i) % 10;
          if (pick < 4) {
            const r = await call('login', '/user/login', { method: 'POST', headers: json, body: JSON.stringify({ email }) });
            await r?.arrayBuffer();
          } else if (pick < 7) {
            const text = `Load feedback from client ${n}, request ${i}: the questions were clear and fair.`;
            const r = await call('feedback', '/user/feedback', {
              method: 'POST',
              headers: { ...json, ...user },
              body: JSON.stringify({ feedback: text, topic: 'JavaScript', questionIndex: 1 + (i % 5) }),
            });
            if (r?.status === 201) acked.feedback.set(((await r.json()) as { id: number }).id, text);
            else await r?.arrayBuffer();
          } else {
            const t = await call('token', `/interview/token?questionSetId=${first.id}`, { headers: user });
            if (t?.status !== 200) {
              await t?.arrayBuffer();
              continue;
            }
            const { sessionId } = (await t.json()) as { sessionId?: string };
            const body = {
              transcripts: TRANSCRIPT,
              durationSeconds: 60 + (i % 600),
              questionSetId: first.id,
              ...(sessionId ? { sessionId } : {}),
            };
            const r = await call('rate', '/interview/rate-transcript', {
              method: 'POST',
              headers: { ...json, ...user },
              body: JSON.stringify(body),
            });
            if (r?.status === 200) {
              const answer = (await r.json()) as { id: number; markdown: string };
              acked.ratings.set(answer.id, answer.markdown);
            } else await r?.arrayBuffer();
          }
        }
      };
      await Promise.all(Array.from({ length: options.clients }, (_, n) => client(n)));
      rssAfterMb = rssMb(server.serverPid);
    } finally {
      await server.stop();
    }

    // Verify with the server stopped (PGlite is single-process), through the real schema.
    const check = await openDatabase(
      db.databaseUrl ? { kind: 'postgres', url: db.databaseUrl } : { kind: 'pglite', dataDir: path.join(db.dataDir, 'pglite') },
    );
    let missingFeedback = 0;
    let missingRatings = 0;
    try {
      const feedbackIds = [...acked.feedback.keys()];
      for (let i = 0; i < feedbackIds.length; i += 1000) {
        const rows = await check.db
          .select({ id: feedback.id, text: feedback.feedback })
          .from(feedback)
          .where(inArray(feedback.id, feedbackIds.slice(i, i + 1000)));
        const found = new Map(rows.map((r) => [r.id, r.text]));
        for (const id of feedbackIds.slice(i, i + 1000)) if (found.get(id) !== acked.feedback.get(id)) missingFeedback += 1;
      }
      const ratingIds = [...acked.ratings.keys()];
      for (let i = 0; i < ratingIds.length; i += 1000) {
        const rows = await check.db
          .select({ id: events.id, status: events.ratingStatus, markdown: events.ratingMarkdown })
          .from(events)
          .where(inArray(events.id, ratingIds.slice(i, i + 1000)));
        const found = new Map(rows.map((r) => [r.id, r]));
        for (const id of ratingIds.slice(i, i + 1000)) {
          const row = found.get(id);
          if (!row || row.status !== 'rated' || row.markdown !== acked.ratings.get(id)) missingRatings += 1;
        }
      }
    } finally {
      await check.close();
    }
    const serverErrors = Object.entries(statuses)
      .filter(([s]) => Number(s) >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
    const result: LoadResult = {
      database: options.database,
      clients: options.clients,
      seconds: options.seconds,
      requests,
      byKind,
      statuses,
      serverErrors,
      networkErrors,
      acknowledgedFeedback: acked.feedback.size,
      acknowledgedRatings: acked.ratings.size,
      missingFeedback,
      missingRatings,
      rssAfterStartMb,
      rssAfterMb,
      pass:
        serverErrors === 0 &&
        networkErrors === 0 &&
        missingFeedback === 0 &&
        missingRatings === 0 &&
        acked.feedback.size > 0 &&
        acked.ratings.size > 0,
    };
    options.log(
      `  load ${options.database}: ${requests} requests (${JSON.stringify(byKind)}), statuses ${JSON.stringify(statuses)}, acknowledged ${acked.feedback.size} feedback / ${acked.ratings.size} ratings, missing ${missingFeedback} / ${missingRatings}: ${result.pass ? 'PASS' : 'FAIL'}`,
    );
    return result;
  } finally {
    await db.dispose();
  }
}
