/**
 * The OpenAI Realtime voice mode on several servers behind a real load balancer (README, Running
 * several servers): three server processes on one PostgreSQL behind Debian's HAProxy
 * (e2e/support/haproxy.ts: the README's recipe, round-robin, no stickiness), the built app in
 * Debian Chromium, a fake microphone fed by an espeak-ng speech WAV, WebRTC + Opus to the local
 * OpenAI Realtime peer (test-support/realtime-peer/, werift). The browser's SDP offer reaches whichever
 * server the balancer picks; that server opens the call and supervises it over the sideband under a
 * lease in the database (server/services/calls/leases.ts). Mid-interview
 *   (a) the three servers are restarted one by one with SIGTERM: each hands the call over and
 *       another one reopens the sideband by call id, while the candidate goes on talking;
 *   (b) the server that supervises the call is killed with SIGKILL: once its lease runs out another
 *       server takes it over (the candidate is quiet meanwhile: lines spoken while no server listens
 *       are not in the transcript, docs/product-rules.md, Server restarts).
 * Each interview ends with its whole transcript (every line the peer spoke or transcribed, once),
 * one rating and one credit spent; the call is never dropped, so the candidate sees no
 * "Reconnecting" text at all.
 */
import type { Page } from '@playwright/test';
import pg from 'pg';
import type { TranscriptEntry } from '../contract';
import { chromiumArgs } from '../playwright.config';
import { call, login, wholeEvent } from '../test-support/fixtures';
import {
  CONNECTION_LOST_CHOICE,
  CONTINUING_NOTICE,
  RECONNECT_FAILED_CHOICE,
  RECONNECTING_NOTICE,
} from '../web/src/features/interview/reconnect-texts';
import type { CallRecord } from '../test-support/realtime-peer/call';
import { holdAt } from '../test-support/realtime-peer/gates';
import { defaultPeerOptions } from '../test-support/realtime-peer/options';
import { startRealtimePeer, type RealtimePeer } from '../test-support/realtime-peer/server';
import { makeSpeechWav } from '../test-support/realtime-peer/speech-wav';
import { createPostgresDatabase } from './support/databases';
import { SERVER_NAMES, startCluster, type Cluster, type ServerName } from './support/cluster';
import { E2E_ADMIN_SECRET } from '../test-support/server-process';
import { expect, test } from './support/test';

const CREDITS = 3;
const wav = makeSpeechWav();
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${wav}`, '--autoplay-policy=no-user-gesture-required'],
  },
});
test.describe.configure({ mode: 'serial' });

let database: { url: string; drop(): Promise<void> };
let peer: RealtimePeer;
let cluster: Cluster;
let setName: string;

const SUPERVISION = /^realtime call (started|taken over|handed over|ended)$/;

/** The running server that supervises the call now, from its log lines about the call (null: none). */
function supervisorOf(callId: string): ServerName | null {
  const owners: ServerName[] = [];
  for (const name of SERVER_NAMES) {
    const lines = (cluster.running[name]?.output() ?? '')
      .split('\n')
      .filter((line) => line.includes(callId))
      .map((line) => {
        try {
          return (JSON.parse(line) as { msg?: string }).msg ?? '';
        } catch {
          return '';
        }
      })
      .filter((msg) => SUPERVISION.test(msg));
    const last = lines.at(-1);
    if (last === 'realtime call started' || last === 'realtime call taken over') owners.push(name);
  }
  expect(owners.length, `servers supervising ${callId}: ${owners.join(', ')}`).toBeLessThanOrEqual(1);
  return owners[0] ?? null;
}

/** The session row of a call (the lease and the transcript stored so far). */
async function sessionOfCall(callId: string): Promise<{ callOwner: string | null; turns: TranscriptEntry[] } | null> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const result = await client.query<{ call_owner: string | null; turns: TranscriptEntry[] }>(
      'select call_owner, turns from interview_sessions where call_id = $1',
      [callId],
    );
    const row = result.rows[0];
    return row ? { callOwner: row.call_owner, turns: row.turns } : null;
  } finally {
    await client.end();
  }
}

/** Every line the peer spoke (its transcripts) or transcribed of the candidate, per role, in order. */
function peerLines(record: CallRecord): { interviewer: string[]; interviewee: string[] } {
  const interviewer: string[] = [];
  const interviewee: string[] = [];
  for (const event of record.serverEvents) {
    if (event.type === 'response.output_audio_transcript.done') interviewer.push(String(event.transcript).trim());
    if (event.type === 'conversation.item.input_audio_transcription.completed') interviewee.push(String(event.transcript).trim());
  }
  return { interviewer, interviewee };
}

const byRole = (lines: TranscriptEntry[], role: string): string[] => lines.filter((l) => l.role === role).map((l) => l.transcript);

/**
 * The fake microphone can be switched off and on (its track disabled: WebRTC sends silence), and
 * any text of the reconnect path the page ever shows is recorded.
 */
async function instrument(page: Page): Promise<void> {
  await page.addInitScript(
    (texts: string[]) => {
      const w = window as unknown as { __mics: MediaStream[]; __muted: boolean; __seen: string[] };
      w.__mics = [];
      w.__muted = false;
      w.__seen = [];
      const media = navigator.mediaDevices;
      const original = media.getUserMedia.bind(media);
      media.getUserMedia = async (constraints) => {
        const stream = await original(constraints);
        w.__mics.push(stream);
        for (const track of stream.getAudioTracks()) track.enabled = !w.__muted;
        return stream;
      };
      const look = () => {
        const text = document.body?.innerText ?? '';
        for (const t of texts) if (text.includes(t) && !w.__seen.includes(t)) w.__seen.push(t);
      };
      new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true });
    },
    [RECONNECTING_NOTICE, CONNECTION_LOST_CHOICE, RECONNECT_FAILED_CHOICE, CONTINUING_NOTICE, 'Reconnecting...'],
  );
}

async function setMicrophone(page: Page, on: boolean): Promise<void> {
  await page.evaluate((enabled) => {
    const w = window as unknown as { __mics: MediaStream[]; __muted: boolean };
    w.__muted = !enabled;
    for (const stream of w.__mics) for (const track of stream.getAudioTracks()) track.enabled = enabled;
  }, on);
}

const reconnectTextsSeen = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);

/** Logged in through the balancer, set 1 chosen, the interview started: the peer's call. */
async function begin(page: Page, email: string): Promise<CallRecord> {
  await login({ url: cluster.balancer.url }, email);
  await page.addInitScript((e) => window.localStorage.setItem('userEmail', e), email);
  await instrument(page);
  await page.goto(cluster.balancer.url);
  await page.getByRole('dialog', { name: 'Choose an Interview Topic' }).getByTestId('tile-1').click();
  await expect(page.getByTestId('topic-heading')).toHaveText(setName);
  const calls = peer.calls.length;
  await page.getByRole('button', { name: 'start session' }).click();
  await expect(page.getByRole('button', { name: 'disconnect' })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => peer.calls.length).toBe(calls + 1);
  const record = peer.calls.at(-1);
  if (!record) throw new Error('the peer has no call');
  await expect.poll(() => supervisorOf(record.id), { timeout: 10_000 }).not.toBeNull();
  return record;
}

/**
 * The interview ends by itself (the interviewer closes, the server hangs up, the browser asks for
 * the rating through the balancer): the feedback overlay, one START and one RATE, the rated
 * transcript holding every line the peer said or heard, once; one credit spent; one call, never
 * dropped, so no reconnect text was ever shown.
 */
async function expectWholeAndRatedOnce(page: Page, email: string, record: CallRecord): Promise<void> {
  const overlay = page.getByRole('dialog', { name: 'Session Feedback' });
  await expect(overlay.getByRole('button', { name: 'Continue' })).toBeVisible({ timeout: 90_000 });
  await expect(overlay.getByText(/^Score: \d+\/100$/)).toBeVisible();
  const lb = { url: cluster.balancer.url };
  const admin = { headers: { 'x-admin-secret': E2E_ADMIN_SECRET } };
  const events = (
    await call<Array<{ id: number; userEmail: string | null; eventType: string }>>(lb, 'GET', '/api/events?limit=100', admin)
  ).body.filter((e) => e.userEmail === email);
  expect(events.map((e) => e.eventType).sort()).toEqual(['RATE', 'START']);
  // The list carries previews: the whole transcript and Markdown come with the event's details.
  const rate = await wholeEvent<{ transcript: TranscriptEntry[] | null; ratingMarkdown: string | null }>(
    lb,
    events.find((e) => e.eventType === 'RATE'),
    admin,
  );
  const stored = rate?.transcript ?? [];
  const said = peerLines(record);
  const defaults = defaultPeerOptions();
  expect(said.interviewer.at(-1)).toBe(defaults.closingRemark);
  expect(said.interviewee.length).toBeGreaterThan(2);
  expect(byRole(stored, 'interviewer')).toEqual(said.interviewer);
  expect(byRole(stored, 'interviewee')).toEqual(said.interviewee);
  expect((await login(lb, email)).credits.left).toBe(CREDITS - 1);
  // The one call the interview started is the last the peer answered: the browser never called again.
  expect(peer.calls.at(-1)).toBe(record);
  // Hung up once, by whichever server supervises it (at once after the goodbye, or at its next check
  // when the rating reached another server first).
  await expect.poll(() => peer.hangups.filter((id) => id === record.id).length, { timeout: 15_000 }).toBe(1);
  await expect.poll(() => peer.activeCalls()).toBe(0);
  expect(await reconnectTextsSeen(page)).toEqual([]);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  database = await createPostgresDatabase();
  peer = await startRealtimePeer();
  cluster = await startCluster(database.url, () => ({
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: peer.baseUrl,
    FREE_SESSION_LIMIT: String(CREDITS),
    // Info: the call's lines ("realtime call started", "taken over") say which server supervises it.
    LOG_LEVEL: 'info',
  }));
  const sets = (await call<Array<{ index: number; name: string }>>({ url: cluster.balancer.url }, 'GET', '/api/question-sets')).body;
  const first = sets.find((s) => s.index === 1);
  if (!first) throw new Error('The catalogue has no set with index 1.');
  setName = first.name;
});

test.afterAll(async () => {
  await cluster?.stop();
  await peer?.close();
  await database?.drop();
});

test('a rolling restart (SIGTERM, one server after the other) during a live call: the call is handed over each time and the candidate notices nothing', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // The second question is held while it is spoken, so the interview is still live when the last
  // server restarts; the candidate goes on talking throughout.
  const gates = holdAt('speaking:2');
  peer.options = { ...defaultPeerOptions(), maxQuestions: 3, speechMs: 1500, turnGate: gates.turnGate };
  const email = 'realtime-rolling-restart@example.com';
  const record = await begin(page, email);
  await expect.poll(() => gates.reached('speaking:2'), { timeout: 60_000 }).toBe(true);
  const opener = supervisorOf(record.id);
  for (const name of SERVER_NAMES) await cluster.restart(name);
  // Every process that started the interview is gone; one of the new ones supervises the call.
  await expect.poll(() => supervisorOf(record.id), { timeout: 15_000 }).not.toBeNull();
  expect(record.sidebandAttachments).toBeGreaterThan(1);
  test.info().annotations.push({ type: 'handovers', description: `${record.sidebandAttachments - 1} (opened on ${opener})` });
  gates.release('speaking:2');
  await expectWholeAndRatedOnce(page, email, record);
});

test('the server supervising a live call killed with SIGKILL: another one takes its lease over and reconnects the sideband by call id', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const gates = holdAt('speaking:2');
  peer.options = { ...defaultPeerOptions(), maxQuestions: 3, speechMs: 1500, turnGate: gates.turnGate };
  const email = 'realtime-killed-server@example.com';
  const record = await begin(page, email);
  await expect.poll(() => gates.reached('speaking:2'), { timeout: 60_000 }).toBe(true);
  // The candidate listens to the question: quiet until the call is supervised again.
  await setMicrophone(page, false);
  let heard = -1;
  await expect
    .poll(
      () => {
        const now = record.utterances;
        const settled = now === heard;
        heard = now;
        return settled;
      },
      { intervals: [2_500], timeout: 30_000 },
    )
    .toBe(true);
  // Everything said so far is stored.
  const said = peerLines(record);
  await expect
    .poll(async () => (await sessionOfCall(record.id))?.turns.length, { timeout: 10_000 })
    .toBe(said.interviewer.length + said.interviewee.length);
  const victim = supervisorOf(record.id);
  if (!victim) throw new Error('nobody supervises the call');
  const owner = (await sessionOfCall(record.id))?.callOwner;
  expect(owner).toEqual(expect.any(String));
  const attachments = record.sidebandAttachments;
  const killedAt = Date.now();
  await cluster.kill(victim);
  // The lease runs out (CALL_LEASE_MS) and one of the others claims it at its next look.
  await expect.poll(() => record.sidebandAttachments, { timeout: 40_000 }).toBe(attachments + 1);
  const takeoverMs = Date.now() - killedAt;
  test.info().annotations.push({ type: 'takeover', description: `${takeoverMs} ms after SIGKILL` });
  await expect.poll(() => supervisorOf(record.id)).not.toBeNull();
  expect(supervisorOf(record.id)).not.toBe(victim);
  expect((await sessionOfCall(record.id))?.callOwner).not.toBe(owner);
  await setMicrophone(page, true);
  gates.release('speaking:2');
  await expectWholeAndRatedOnce(page, email, record);
  await cluster.start(victim);
});
