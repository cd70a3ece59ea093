/**
 * Crash test: the REAL server process (tsx server/main.ts, PGlite in a temp DATA_DIR) rates
 * transcripts through an LLM rater (a local server speaking the chat-completions protocol).
 * Half of the ratings are answered at once (acknowledged with 200), the other half are held by
 * the LLM so they sit in the database as pending. Then the server gets SIGKILL mid-way, and a new
 * process on the same DATA_DIR must: take over the dead process's lock, start, keep every
 * acknowledged rating exactly once, and complete the pending ones.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../test-support/server-process';
import { call, login } from '../../test-support/fixtures';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply, type RecordedRequest } from '../../test-support/fake-llm-server';
import { LOCK_FILE_NAME } from '../data-dir-lock';

const EMAIL = 'crash-test@example.com';
const ACKED = 6;
const HELD = 5;

interface AdminEventRow {
  id: number;
  eventType: string;
  transcript: Array<{ role: string; transcript: string }> | null;
  ratingMarkdown: string | null;
  score: number | null;
  rater: string | null;
}

/** A rating JSON with one entry per question the prompt lists, as a strict model would answer. */
function validRating(request: RecordedRequest): FakeReply {
  const messages = (request.body.messages ?? []) as Array<{ content?: string }>;
  const prompt = messages.map((m) => m.content ?? '').join('\n');
  const block = prompt.split('Questions:\n')[1]?.split('\n\n')[0] ?? '';
  const count = block.split('\n').filter((line) => /^\d+\. /.test(line)).length;
  const questions = Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    credits: [],
    feedback: 'Name the trade-offs explicitly.',
  }));
  return {
    content: JSON.stringify({ summary: 'Solid answers with room for detail.', questions, improvements: ['Give an example.'] }),
  };
}

const RACING = 5;
const marker = (kind: 'acked' | 'held' | 'racing', n: number) => `crash-marker-${kind}-${n}`;

function transcriptFor(label: string) {
  return [
    { role: 'interviewer', transcript: 'What is a closure in JavaScript?' },
    { role: 'interviewee', transcript: `A closure keeps its outer scope alive after the outer function returns (${label}).` },
  ];
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function markerOf(event: AdminEventRow): string | null {
  const text = (event.transcript ?? []).map((t) => t.transcript).join(' ');
  return /crash-marker-(acked|held|racing)-\d+/.exec(text)?.[0] ?? null;
}

describe('crash: kill -9 while ratings are being submitted', () => {
  let llm: FakeLlmServer;
  const servers: RunningServer[] = [];
  let dataDir = '';

  afterAll(async () => {
    for (const s of servers) await s.stop().catch(() => undefined);
    await llm?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged rating exactly once, completes pending ones and takes over the lock', async () => {
    llm = await startFakeLlmServer();
    let holding = true;
    llm.setFallback({
      decide: (request) => {
        const held = JSON.stringify(request.body).includes('crash-marker-held-');
        // Held ratings never get an answer from this process's point of view.
        return held && holding ? { delayMs: 10 * 60_000, then: validRating(request) } : validRating(request);
      },
    });
    const env = { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'crash-model', FREE_SESSION_LIMIT: '20' };

    const first = await startServer({ env, keepDataDir: true });
    servers.push(first);
    dataDir = first.dataDir;
    const user = { 'x-user-email': EMAIL };
    const admin = { 'x-admin-secret': first.adminSecret };
    await login(first, EMAIL);
    const sets = await call<Array<{ id: number; index: number }>>(first, 'GET', '/api/question-sets');
    const setId = sets.body.find((s) => s.index === 1)?.id;
    expect(setId).toBeDefined();

    // Each rating belongs to its own session.
    const rate = async (label: string) => {
      const token = await call<{ sessionId: string }>(first, 'GET', `/interview/token?questionSetId=${setId}`, { headers: user });
      return call<{ id: number; markdown: string; score: number }>(first, 'POST', '/interview/rate-transcript', {
        headers: user,
        body: { transcripts: transcriptFor(label), durationSeconds: 61, questionSetId: setId, sessionId: token.body.sessionId },
      });
    };

    // All submitted concurrently: the held ones stay in flight, the others are acknowledged.
    const inFlight = Array.from({ length: HELD }, (_, i) => rate(marker('held', i)).catch((error: unknown) => error));
    const acknowledged = await Promise.all(Array.from({ length: ACKED }, (_, i) => rate(marker('acked', i))));
    for (const answer of acknowledged) {
      expect(answer.status).toBe(200);
      expect(answer.body.markdown).toContain('_Feedback written by the language model crash-model;');
    }
    const ackedIds = acknowledged.map((a) => a.body.id);
    console.log(`crash: ${ACKED} ratings acknowledged (ids ${ackedIds.join(', ')}), ${HELD} held by the LLM`);

    // Every held rating reached the rater, so it is stored as pending.
    await until('the held ratings to reach the LLM', async () => {
      const held = llm.requests.filter((r) => JSON.stringify(r.body).includes('crash-marker-held-')).length;
      return held >= HELD ? held : null;
    });
    const beforeKill = await call<AdminEventRow[]>(first, 'GET', '/api/events?limit=500', { headers: admin });
    const heldBefore = beforeKill.body.filter((e) => markerOf(e)?.includes('held'));
    expect(heldBefore).toHaveLength(HELD);
    expect(heldBefore.every((e) => e.ratingMarkdown === null)).toBe(true);

    const lockFile = path.join(dataDir, LOCK_FILE_NAME);
    const deadPid = Number(readFileSync(lockFile, 'utf8').trim());
    console.log(`crash: kill -9 of the server process ${deadPid} while ${HELD} ratings are pending`);
    // A last burst races the kill: never acknowledged, so each may or may not have been stored.
    const racing = Array.from({ length: RACING }, (_, i) => rate(marker('racing', i)).catch((error: unknown) => error));
    process.kill(deadPid, 'SIGKILL');
    const failures = await Promise.all(inFlight);
    const raced = await Promise.all(racing);
    const racedAcked = raced.filter((r) => typeof r === 'object' && r !== null && 'status' in r && r.status === 200).length;
    expect(failures.every((f) => f instanceof Error)).toBe(true);
    await first.stop();
    expect(existsSync(lockFile)).toBe(true);
    expect(() => process.kill(deadPid, 0)).toThrow();

    // The LLM answers again; the new process must finish the pending ratings by itself.
    holding = false;
    const second = await startServer({ env, dataDir });
    servers.push(second);
    const newPid = Number(readFileSync(lockFile, 'utf8').trim());
    expect(newPid).not.toBe(deadPid);
    expect(() => process.kill(newPid, 0)).not.toThrow();
    console.log(`crash: restarted as process ${newPid} on the same DATA_DIR (lock taken over)`);

    const events = await until('the pending ratings to be completed', async () => {
      const answer = await call<AdminEventRow[]>(second, 'GET', '/api/events?limit=500', { headers: admin });
      const rates = answer.body.filter((e) => e.eventType === 'RATE');
      return rates.every((e) => e.ratingMarkdown !== null) ? rates : null;
    });
    const racedStored = events.filter((e) => markerOf(e)?.includes('racing')).length;
    console.log(`crash: of ${RACING} requests racing the kill, ${racedAcked} were acknowledged and ${racedStored} stored`);

    const markers = events.map(markerOf);
    for (let i = 0; i < ACKED; i++)
      expect(
        markers.filter((m) => m === marker('acked', i)),
        marker('acked', i),
      ).toHaveLength(1);
    for (let i = 0; i < HELD; i++)
      expect(
        markers.filter((m) => m === marker('held', i)),
        marker('held', i),
      ).toHaveLength(1);
    for (let i = 0; i < RACING; i++) expect(markers.filter((m) => m === marker('racing', i)).length).toBeLessThanOrEqual(1);
    // Whatever was stored was rated (the poll above), and nothing acknowledged went missing.
    expect(racedStored).toBeGreaterThanOrEqual(racedAcked);
    expect(events).toHaveLength(ACKED + HELD + racedStored);
    for (const id of ackedIds) {
      const event = events.find((e) => e.id === id);
      expect(event?.rater).toBe('llm:crash-model');
    }
    for (const event of events.filter((e) => markerOf(e)?.includes('held'))) {
      expect(event.rater).toBe('llm:crash-model');
      // No credits offered, so none verified: the server's score is 0 whatever the model thinks.
      expect(event.score).toBe(0);
      expect(event.ratingMarkdown).toContain('Solid answers with room for detail.');
    }

    // The user's history shows all of them, each once.
    const history = await call<{ ratings: Array<{ id: number }>; pagination: { totalCount: number } }>(
      second,
      'GET',
      '/user/ratings?page=1&limit=50',
      { headers: { ...user, 'content-type': 'application/json' } },
    );
    expect(history.body.pagination.totalCount).toBe(ACKED + HELD + racedStored);
    expect(new Set(history.body.ratings.map((r) => r.id)).size).toBe(ACKED + HELD + racedStored);
    console.log(`crash: after restart ${ACKED} acknowledged ratings present once each, ${HELD} pending ones completed`);
  }, 180_000);
});
