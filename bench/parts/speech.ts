/**
 * Speech pipeline turns, with the fake OpenAI-compatible audio server answering after fixed
 * delays (STT_DELAY_MS before the transcript, TTS_DELAY_MS before the first audio byte) and the
 * scripted interviewer (no LLM call):
 * - server-added time per turn, over HTTP against the real server process: from sending an
 *   answer's WAV to the first byte of the interviewer's audio, minus the time the STT and TTS
 *   calls took as the fake saw them (its fixed delays plus its own parsing; target: median ≤ 50 ms);
 * - in Debian Chromium, answers with inner pauses spoken by espeak-ng (speech-pauses.ts): the
 *   candidate's last word to the interviewer's voice, answers cut off mid-thought, barge-in;
 * - in Debian Chromium, browser speech with a language model (browser-speech-turns.ts): a typed
 *   answer sent to the browser's voice starting, against the whole reply.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeAudioServer, type FakeAudioServer } from '../../test-support/fake-audio-server';
import { espeakMp3, spokenWav } from '../../test-support/local-speech';
import { startBenchServer, type BenchServer } from '../lib/processes';
import { measurePausedAnswers, type PausedAnswersResult } from './speech-pauses';
import { measureBrowserSpeechTurns, type BrowserSpeechTurnsResult } from './browser-speech-turns';
import { measureWithLocalTts, type LocalTtsResult } from './speech-local';

export const STT_DELAY_MS = 300;
export const TTS_DELAY_MS = 200;
/** The scripted interviewer repeats the question for this; a session never runs out of questions. */
const HEARD = 'Could you repeat the question, please?';
const MODELS = { sttModel: 'bench-stt', ttsModel: 'bench-tts', ttsVoice: 'bench-voice' };

export interface SpeechResult {
  sttDelayMs: number;
  ttsDelayMs: number;
  /** Answer upload to first interviewer audio byte, minus the time spent in both upstream calls. */
  serverAdded: { runs: number; medianMs: number; p90Ms: number; cpuMsPerTurn: number };
  /** Chromium, answers with inner pauses (speech-pauses.ts). */
  pauses: PausedAnswersResult & { sttMs: number[] };
  /** Chromium, browser speech with a language model, typed answers (browser-speech-turns.ts). */
  browserSpeech?: BrowserSpeechTurnsResult;
  /** The paused answers with a real local TTS server (speech-local.ts), when asked for. */
  localTts?: LocalTtsResult;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN;

function pipelineEnv(audio: FakeAudioServer): Record<string, string> {
  return {
    ...audio.pipelineSettings,
    FREE_SESSION_LIMIT: '1000',
    LOG_LEVEL: 'warn',
  };
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

async function newSession(server: BenchServer, email: string): Promise<string> {
  await json(
    await fetch(`${server.url}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    }),
  );
  const sets = await json<Array<{ id: number; index: number }>>(await fetch(`${server.url}/api/question-sets`));
  const token = await json<{ client_secret: { value: string } }>(
    await fetch(`${server.url}/interview/token?questionSetId=${sets.find((s) => s.index === 1)?.id}`, {
      headers: { 'x-user-email': email },
    }),
  );
  const opening = await json<{ audio: string[] }>(
    await fetch(`${server.url}/interview/speech-turn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-email': email },
      body: JSON.stringify({ sessionToken: token.client_secret.value }),
    }),
  );
  for (const clip of opening.audio) await (await fetch(`${server.url}${clip}`)).arrayBuffer();
  return token.client_secret.value;
}

/**
 * One turn: the answer's audio up, the first byte of the reply's voice down. Answers the time
 * beyond the upstream calls: the total minus the STT call (arrival to transcript sent) and the
 * TTS call (arrival to first audio byte sent), both timed by the fake on this process's clock.
 */
async function oneTurn(server: BenchServer, audio: FakeAudioServer, email: string, sessionToken: string, wav: Buffer): Promise<number> {
  audio.requests.length = 0;
  const started = performance.now();
  const turn = await json<{ audio: string[]; retry: boolean }>(
    await fetch(`${server.url}/interview/speech-answer`, {
      method: 'POST',
      headers: { 'content-type': 'audio/wav', 'x-user-email': email, 'x-session-token': sessionToken },
      body: new Uint8Array(wav),
    }),
  );
  if (turn.retry || !turn.audio[0]) throw new Error('the turn was not answered');
  const res = await fetch(`${server.url}${turn.audio[0]}`);
  const reader = res.body?.getReader();
  await reader?.read();
  const firstByte = performance.now() - started;
  await reader?.cancel();
  const stt = audio.requests.find((r) => r.kind === 'stt');
  const tts = audio.requests.find((r) => r.kind === 'tts');
  if (stt?.answeredAt === undefined || tts?.answeredAt === undefined) throw new Error('the fake did not see both calls');
  const upstream = stt.answeredAt - stt.at + (tts.answeredAt - tts.at);
  // Let the rest of the line's synthesis finish, so turns do not overlap upstream.
  for (const clip of turn.audio.slice(1)) await (await fetch(`${server.url}${clip}`)).arrayBuffer();
  return firstByte - upstream;
}

/** CPU time the server process has used (user + system), from /proc; 10 ms resolution. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function serverAdded(server: BenchServer, audio: FakeAudioServer, wav: Buffer, turns: number, log: (line: string) => void) {
  const added: number[] = [];
  let cpuBefore = 0;
  let sessionToken = '';
  let email = '';
  // Three unmeasured turns warm up the server; a new session every 30 (the limit is 40 answers).
  for (let i = 0; i < turns + 3; i++) {
    if (i % 30 === 0) {
      email = `speech-${i}-${Date.now()}@bench.example`;
      sessionToken = await newSession(server, email);
    }
    if (i === 3) cpuBefore = cpuMs(server.serverPid);
    const ms = await oneTurn(server, audio, email, sessionToken, wav);
    if (i >= 3) added.push(ms);
  }
  // Wall time on a shared machine includes waiting for a CPU; the process's own CPU time does not
  // (it includes the turns' session setup every 30 turns).
  const cpuMsPerTurn = (cpuMs(server.serverPid) - cpuBefore) / added.length;
  const result = { runs: added.length, medianMs: median(added), p90Ms: percentile(added, 0.9), cpuMsPerTurn };
  log(
    `  server-added time per turn: median ${result.medianMs.toFixed(1)} ms, p90 ${result.p90Ms.toFixed(1)} ms (${added.length} turns); server CPU ${cpuMsPerTurn.toFixed(1)} ms per turn`,
  );
  return result;
}

async function serverAddedRun(log: (line: string) => void, turns: number) {
  const line = await espeakMp3('Of course. Here is the question again. What is a closure in JavaScript?');
  const audio = await startFakeAudioServer({
    apiKey: null,
    ...MODELS,
    defaultTranscript: HEARD,
    synthesize: () => line,
    sttDelayMs: STT_DELAY_MS,
    ttsDelayMs: TTS_DELAY_MS,
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-speech-'));
  const micDir = mkdtempSync(path.join(tmpdir(), 'bench-speech-mic-'));
  const server = await startBenchServer({ dataDir, env: pipelineEnv(audio) });
  try {
    const answer = spokenWav(path.join(micDir, 'answer.wav'), [0.3, HEARD, 0.3]);
    const added = await serverAdded(server, audio, readFileSync(answer), turns, log);
    return added;
  } finally {
    await server.stop();
    await audio.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(micDir, { recursive: true, force: true });
  }
}

export async function runSpeech(log: (line: string) => void, turns = 60, localTtsPython: string | null = null): Promise<SpeechResult> {
  const added = await serverAddedRun(log, turns);
  const pauses = await measurePausedAnswers({ sttDelayMs: STT_DELAY_MS, ttsDelayMs: TTS_DELAY_MS }, log);
  const browserSpeech = await measureBrowserSpeechTurns(log, turns >= 60 ? 10 : 4);
  const localTts = localTtsPython ? await measureWithLocalTts(localTtsPython, STT_DELAY_MS, log) : undefined;
  return {
    sttDelayMs: STT_DELAY_MS,
    ttsDelayMs: TTS_DELAY_MS,
    serverAdded: added,
    pauses,
    browserSpeech,
    ...(localTts ? { localTts } : {}),
  };
}
