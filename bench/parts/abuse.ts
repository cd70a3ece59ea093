/**
 * What one free account can cost in one minute at default settings (README, Security and limits):
 * the real server (buildApp, the shipped question sets, every setting at its SETTINGS default but
 * the upstream addresses) on PGlite, over HTTP from one client address, against local stand-ins
 * for the language model, speech-to-text, text-to-speech and the OpenAI Realtime calls API.
 *
 * Each figure has its own attack, run on a fresh server and database by a fresh account for at
 * most ATTACK_SECONDS (one rate-limit window); the account's calls are counted where they land,
 * at the fake upstream servers and in the database. Each figure's bound is derived from the
 * settings the server really loaded (credits × per-session budgets, calls per minute per account),
 * so a changed default changes the bound, and a measured figure above its bound fails the part.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import { loadConfig, type AppConfig } from '../../server/config';
import { MAX_TRANSCRIPT_TOTAL_TEXT, MAX_UTTERANCE_LENGTH, FEEDBACK_MAX_LENGTH, MAX_TRANSCRIPT_TEXT } from '../../contract/limits';
import { LLM_RATING_ATTEMPTS, MAX_PROMPT_TRANSCRIPT_CHARS } from '../../server/providers/rating/llm-rater';
import { LLM_TURN_WINDOW, MAX_TURN_CALLS } from '../../server/services/turns';
import { MAX_LINE_PARTS, MAX_CLIP_BYTES } from '../../server/services/speech';
import { MAX_RESUMES } from '../../server/services/resume';
import { raterCallBudget } from '../../server/services/ratings';
import { storedBytes } from '../../server/services/account-storage';
import { EDITOR_MAX_PROMPT_CHARS } from '../../server/services/admin';
import { EVENT_PREVIEW_CHARS, EVENT_PREVIEW_ENTRIES } from '../../contract/limits';
import { startFakeLlmServer, type FakeLlmServer } from '../../test-support/fake-llm-server';
import { startFakeAudioServer } from '../../test-support/fake-audio-server';
import { startFakeRealtimeServer } from '../../test-support/fake-realtime-server';
import { pcmWav } from '../../test-support/pcm-wav';

/** One rate-limit window: every `*_ACCOUNT_RATE_LIMIT` counts per minute. */
const ATTACK_SECONDS = 60;
const ADMIN_SECRET = 'bench-abuse-admin-secret-0123456789';
const MODELS = { sttModel: 'bench-stt', ttsModel: 'bench-tts', ttsVoice: 'bench-voice' };
const OFFER = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';
/** Completions one interviewer turn can make: the reply and its retry, each with a closing remark. */
const COMPLETIONS_PER_TURN = 4;
/** A speech-to-text call and a text-to-speech stream are each tried again once on 5xx, 429 and timeouts. */
const UPSTREAM_TRIES = 2;
/** A UTF-16 code unit (what the contract's lengths count) is at most 3 bytes of UTF-8. */
const UTF8_PER_UNIT = 3;

export interface AbuseFigure {
  figure: string;
  measured: number;
  bound: number;
  unit: string;
  /** How the bound follows from the settings. */
  boundFrom: string;
  /** What the attack did. */
  attack: string;
}

export interface AbuseResult {
  attackSeconds: number;
  settings: Record<string, number | string>;
  figures: AbuseFigure[];
  notes: string[];
}

interface Server {
  app: FastifyInstance;
  url: string;
  config: AppConfig;
  close(): Promise<void>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-abuse-'));
  // Every setting at its default (server/config.ts SETTINGS) but where the upstream servers are.
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_SECRET, DOG_IMAGE_API: 'off', ...env });
  const app = await buildApp(config, { webDist: null });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  return {
    app,
    url,
    config,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Reply<T> {
  status: number;
  body: T;
}

/** One attacker: one account, one client address, the clock of one minute. */
function attacker(server: Server, email: string) {
  const started = Date.now();
  const statuses = new Map<number, number>();
  const firstErrors = new Map<number, string>();
  async function request<T = Record<string, unknown>>(
    method: string,
    url: string,
    options: { body?: unknown; raw?: Buffer | string; contentType?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { 'x-user-email': email, ...options.headers };
    let body: BodyInit | undefined;
    if (options.raw !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/octet-stream';
      body = typeof options.raw === 'string' ? options.raw : new Uint8Array(options.raw);
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const res = await fetch(`${server.url}${url}`, { method, headers, body });
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 400 && !firstErrors.has(res.status))
      firstErrors.set(res.status, `${method} ${url.split('?')[0]}: ${text.slice(0, 120)}`);
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // audio or empty
    }
    return { status: res.status, body: parsed as T };
  }
  return {
    email,
    request,
    /** Still inside the minute. */
    inTime: () => Date.now() - started < ATTACK_SECONDS * 1000,
    statuses,
    firstErrors,
    async login() {
      await request('POST', '/user/login', { body: { email } });
    },
    async setId(index = 1): Promise<number> {
      const sets = await request<Array<{ id: number; index: number; isPremium: boolean }>>('GET', '/api/question-sets');
      const set = sets.body.find((s) => s.index === index);
      if (!set) throw new Error(`no set ${index}`);
      return set.id;
    },
    /** A new interview (one credit), or null when refused. */
    async mint(setId: number): Promise<{ token: string; sessionId: string; sdpUrl?: string } | null> {
      const answer = await request<{ sessionId: string; client_secret: { value: string }; sdpUrl?: string }>(
        'GET',
        `/interview/token?questionSetId=${setId}`,
      );
      if (answer.status !== 200) return null;
      return { token: answer.body.client_secret.value, sessionId: answer.body.sessionId, sdpUrl: answer.body.sdpUrl };
    },
    statusLine: () =>
      [...statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${n} × ${status}`)
        .join(', '),
  };
}

const promptChars = (llm: FakeLlmServer, from = 0) =>
  llm.requests.slice(from).reduce((sum, r) => sum + JSON.stringify(r.body.messages ?? []).length, 0);

const randomText = (length: number) => {
  // Letters and spaces at random: text a compressor cannot shrink much.
  const letters = 'abcdefghijklmnopqrstuvwxyz      ';
  let out = '';
  for (let i = 0; i < length; i++) out += letters[Math.floor(Math.random() * letters.length)];
  return out;
};
const largeTranscript = () => {
  const entries = [];
  const each = MAX_TRANSCRIPT_TEXT / 5;
  for (let used = 0; used + each <= MAX_TRANSCRIPT_TOTAL_TEXT; used += each)
    entries.push({ role: entries.length % 2 === 0 ? 'interviewer' : 'interviewee', transcript: randomText(each) });
  return entries;
};

/** A reply for each session's questions: a usable interviewer line every other call, or what the rater cannot read. */
function llmScript(llm: FakeLlmServer) {
  let n = 0;
  llm.setFallback({
    decide: (request) => {
      if (request.body.response_format) return { content: 'Not a rating.' };
      n += 1;
      // The first try of each turn is unusable (it cleans to nothing), its retry is a question: two paid calls a turn.
      return n % 2 === 1 ? { content: '  **  ' } : { content: 'Thank you. What else can you tell me about closures?' };
    },
  });
}

/** Language-model completions and their prompt size: long typed answers with an unusable first reply, then ratings of the largest transcript. */
async function llmAttack(log: (line: string) => void): Promise<{ figures: AbuseFigure[]; settings: AppConfig }> {
  const llm = await startFakeLlmServer();
  const audio = await startFakeAudioServer({ apiKey: null, ...MODELS, defaultTranscript: '' });
  llmScript(llm);
  const server = await startServer({ ...audio.pipelineSettings, LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'bench-llm' });
  try {
    const c = server.config;
    const a = attacker(server, 'llm-attacker@bench.example');
    await a.login();
    const setId = await a.setId();
    // Every credit spent at once: the turns share one per-account limit, the ratings need no turns.
    const sessions: Array<{ token: string; sessionId: string }> = [];
    for (;;) {
      const minted = await a.mint(setId);
      if (!minted) break;
      sessions.push(minted);
    }
    let openingChars = Infinity;
    for (const session of sessions) {
      if (!a.inTime()) break;
      const before = llm.requests.length;
      const opening = await a.request('POST', '/interview/speech-turn', { body: { sessionToken: session.token } });
      if (opening.status !== 200) break;
      openingChars = Math.min(openingChars, promptChars(llm, before) / Math.max(1, llm.requests.length - before));
      let limited = false;
      for (let turn = 0; a.inTime(); turn++) {
        const answer = await a.request('POST', '/interview/speech-turn', {
          body: { sessionToken: session.token, utterance: `${turn} ${randomText(MAX_UTTERANCE_LENGTH - 10)}` },
        });
        limited = answer.status === 429;
        if (answer.status === 429 || answer.status === 400 || answer.status === 409) break;
      }
      if (limited) break;
    }
    const interviewerCalls = llm.requests.filter((r) => !r.body.response_format).length;
    const interviewerChars = promptChars(llm);
    // Each session rated with the largest transcript, each rating asked for again and again.
    const transcript = largeTranscript();
    const ratedBefore = llm.requests.length;
    // Each session once, then again (RATING_ACCOUNT_RATE_LIMIT counts the repeats too).
    for (let repeat = 0; repeat < 3 && a.inTime(); repeat++) {
      for (const { sessionId } of sessions) {
        await a.request('POST', '/interview/rate-transcript', {
          body: { questionSetId: setId, sessionId, durationSeconds: 600, transcripts: transcript },
        });
      }
    }
    const raterCalls = llm.requests.length - ratedBefore;
    const raterChars = promptChars(llm, ratedBefore);
    log(`  LLM attack: ${sessions.length} sessions, ${interviewerCalls} interviewer + ${raterCalls} rater completions (${a.statusLine()})`);
    for (const line of a.firstErrors.values()) log(`    ${line}`);

    const turnCalls = c.callLimits.turn.perAccount;
    const credits = c.freeSessionLimit;
    const interviewerBound = Math.min(turnCalls * COMPLETIONS_PER_TURN, credits * (MAX_TURN_CALLS + COMPLETIONS_PER_TURN - 1));
    const ratingsBound = Math.min(credits, c.callLimits.rating.perAccount);
    // Within one minute only the first attempt of each rating runs: the first background retry waits RATING_RETRY_DELAY_SECONDS.
    const attemptsInMinute = c.ratingRetryDelaySeconds >= ATTACK_SECONDS ? 1 : 1 + c.ratingRetryAttempts;
    const raterBound = ratingsBound * Math.min(LLM_RATING_ATTEMPTS * attemptsInMinute, raterCallBudget(c));
    // Prompt: the interviewer's instructions (its opening prompt) and a window of lines as long as an answer may be.
    const interviewerPromptBound = openingChars + (LLM_TURN_WINDOW + 1) * MAX_UTTERANCE_LENGTH;
    const raterPromptBound = raterCalls > 0 ? raterChars / raterCalls : MAX_PROMPT_TRANSCRIPT_CHARS;
    const figures: AbuseFigure[] = [
      {
        figure: 'Language-model completions (interviewer + AI rater)',
        measured: interviewerCalls + raterCalls,
        bound: interviewerBound + raterBound,
        unit: 'calls',
        boundFrom: `interviewer: min(TURN_ACCOUNT_RATE_LIMIT ${turnCalls} × ${COMPLETIONS_PER_TURN} per turn, FREE_SESSION_LIMIT ${credits} × (${MAX_TURN_CALLS} turn calls + ${COMPLETIONS_PER_TURN - 1} over on the last)) = ${interviewerBound}; rater: min(${credits} sessions, RATING_ACCOUNT_RATE_LIMIT ${c.callLimits.rating.perAccount}) ratings × ${LLM_RATING_ATTEMPTS} attempts (retries wait RATING_RETRY_DELAY_SECONDS ${c.ratingRetryDelaySeconds} s; at most ${raterCallBudget(c)} per session ever) = ${raterBound}`,
        attack: `typed answers of ${MAX_UTTERANCE_LENGTH} characters, each turn's first reply unusable (retried); every session rated 3 times with a ${MAX_TRANSCRIPT_TOTAL_TEXT.toLocaleString('en-US')}-character transcript while the model answers no rating`,
      },
      {
        figure: 'Language-model input tokens (≈ prompt characters / 4)',
        measured: Math.round((interviewerChars + raterChars) / 4),
        bound: Math.round((interviewerBound * interviewerPromptBound + raterBound * raterPromptBound) / 4),
        unit: 'tokens',
        boundFrom: `interviewer: ${interviewerBound} calls × (its instructions ${Math.round(openingChars).toLocaleString('en-US')} + ${LLM_TURN_WINDOW + 1} lines × ${MAX_UTTERANCE_LENGTH} characters); rater: ${raterBound} calls × its prompt with the transcript cut to ${MAX_PROMPT_TRANSCRIPT_CHARS.toLocaleString('en-US')} characters (${Math.round(raterPromptBound).toLocaleString('en-US')})`,
        attack: 'the same calls',
      },
    ];
    return { figures, settings: c };
  } finally {
    await server.close();
    await llm.close();
    await audio.close();
  }
}

/** Seconds of audio in a WAV the fake received (16-bit mono PCM from pcmWav). */
const wavSeconds = (bytes: Buffer) => (bytes.length - 44) / (bytes.readUInt32LE(28) || 32_000);

/** Speech-to-text: the longest silent answers allowed, session after session, until refused. */
async function sttAttack(log: (line: string) => void): Promise<AbuseFigure[]> {
  const audio = await startFakeAudioServer({ apiKey: null, ...MODELS, defaultTranscript: '' });
  const server = await startServer(audio.pipelineSettings);
  try {
    const c = server.config;
    const a = attacker(server, 'stt-attacker@bench.example');
    await a.login();
    const setId = await a.setId();
    const wav = pcmWav(c.maxAnswerSeconds);
    let sessions = 0;
    let limited = false;
    while (a.inTime() && !limited) {
      const minted = await a.mint(setId);
      if (!minted) break;
      sessions += 1;
      for (;;) {
        const answer = await a.request<{ error?: string }>('POST', '/interview/speech-answer', {
          raw: wav,
          contentType: 'audio/wav',
          headers: { 'x-session-token': minted.token },
        });
        // 429 is both the session's speech budget (next session) and the calls per minute (stop).
        limited = answer.status === 429 && /too many requests/i.test(answer.body.error ?? '');
        if (answer.status !== 200 || !a.inTime()) break;
      }
    }
    const stt = audio.requests.filter((r) => r.kind === 'stt');
    const seconds = stt.reduce((sum, r) => sum + (r.file ? wavSeconds(r.file.bytes) : 0), 0);
    log(`  STT attack: ${sessions} sessions, ${stt.length} transcriptions, ${seconds.toFixed(0)} s of audio (${a.statusLine()})`);
    const answers = Math.min(c.callLimits.turn.perAccount, c.freeSessionLimit * c.sessionSpeechAnswers);
    const secondsBound = Math.min(answers * c.maxAnswerSeconds, c.freeSessionLimit * c.sessionSpeechSeconds);
    return [
      {
        figure: 'Speech-to-text calls',
        measured: stt.length,
        bound: answers * UPSTREAM_TRIES,
        unit: 'calls',
        boundFrom: `min(TURN_ACCOUNT_RATE_LIMIT ${c.callLimits.turn.perAccount}, FREE_SESSION_LIMIT ${c.freeSessionLimit} × SESSION_SPEECH_ANSWERS ${c.sessionSpeechAnswers}) answers × ${UPSTREAM_TRIES} tries`,
        attack: `silent ${c.maxAnswerSeconds}-second WAVs (MAX_ANSWER_SECONDS), nothing heard, session after session`,
      },
      {
        figure: 'Speech-to-text audio',
        measured: Math.round(seconds),
        bound: secondsBound * UPSTREAM_TRIES,
        unit: 'seconds',
        boundFrom: `min(${answers} answers × MAX_ANSWER_SECONDS ${c.maxAnswerSeconds}, ${c.freeSessionLimit} sessions × SESSION_SPEECH_SECONDS ${c.sessionSpeechSeconds}) = ${secondsBound} s, × ${UPSTREAM_TRIES} when every first try fails`,
        attack: 'the same answers',
      },
    ];
  } finally {
    await server.close();
    await audio.close();
  }
}

/** Text-to-speech and the interviewer's clips held in the database: long interviewer lines as fast as turns are taken. */
async function ttsAttack(log: (line: string) => void): Promise<AbuseFigure[]> {
  const llm = await startFakeLlmServer();
  // Seven sentences: a line of the most parts.
  llm.setFallback({ content: Array.from({ length: 7 }, (_, i) => `This is sentence number ${i + 1} of a long reply.`).join(' ') });
  const PART_BYTES = 256 * 1024;
  const audio = await startFakeAudioServer({ apiKey: null, ...MODELS, synthesize: () => Buffer.alloc(PART_BYTES, 1) });
  const server = await startServer({ ...audio.pipelineSettings, LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'bench-llm' });
  try {
    const c = server.config;
    const a = attacker(server, 'tts-attacker@bench.example');
    await a.login();
    const setId = await a.setId();
    let peakClipBytes = 0;
    const clipBytes = async () => {
      const result = (await server.app.appContext.db.execute(
        sql.raw('select coalesce(sum(octet_length(audio)), 0)::bigint as bytes from speech_clip_parts'),
      )) as unknown as { rows: Array<{ bytes: string | number }> };
      return Number(result.rows[0]?.bytes ?? 0);
    };
    let sessions = 0;
    // The minute's turns spread over every credit, so each session holds its own SESSION_AUDIO_CLIPS.
    const turnsPerSession = Math.ceil(c.callLimits.turn.perAccount / c.freeSessionLimit);
    while (a.inTime()) {
      const minted = await a.mint(setId);
      if (!minted) break;
      sessions += 1;
      let refused = false;
      for (let turn = 0; turn < turnsPerSession && a.inTime(); turn++) {
        const body = turn === 0 ? { sessionToken: minted.token } : { sessionToken: minted.token, utterance: `Answer ${turn}.` };
        const answer = await a.request<{ audio?: string[] }>('POST', '/interview/speech-turn', { body });
        if (answer.status !== 200) {
          refused = answer.status === 429;
          break;
        }
        // Every clip fetched, so every part is synthesised and stored.
        for (const clip of answer.body.audio ?? []) await fetch(`${server.url}${clip}`).then((r) => r.arrayBuffer());
        peakClipBytes = Math.max(peakClipBytes, await clipBytes());
      }
      if (refused) break;
    }
    const tts = audio.requests.filter((r) => r.kind === 'tts').length;
    log(
      `  TTS attack: ${sessions} sessions, ${tts} synthesis calls, clips in the database at most ${(peakClipBytes / 1e6).toFixed(1)} MB (${a.statusLine()})`,
    );
    const turns = Math.min(c.callLimits.turn.perAccount, c.freeSessionLimit * MAX_TURN_CALLS);
    const clipsHeld = c.freeSessionLimit * c.sessionAudioClips;
    return [
      {
        figure: 'Text-to-speech calls',
        measured: tts,
        bound: turns * MAX_LINE_PARTS * UPSTREAM_TRIES,
        unit: 'calls',
        boundFrom: `TURN_ACCOUNT_RATE_LIMIT ${c.callLimits.turn.perAccount} lines × ${MAX_LINE_PARTS} parts × ${UPSTREAM_TRIES} tries`,
        attack: 'interviewer lines of seven sentences (the most parts), the turns spread over every credit, every clip fetched',
      },
      {
        figure: "Interviewer clips held in the database (each part's audio here 256 KiB)",
        measured: peakClipBytes,
        bound: Math.min(clipsHeld, turns * MAX_LINE_PARTS) * MAX_CLIP_BYTES,
        unit: 'bytes',
        boundFrom: `min(FREE_SESSION_LIMIT ${c.freeSessionLimit} × SESSION_AUDIO_CLIPS ${c.sessionAudioClips}, ${turns} lines × ${MAX_LINE_PARTS} parts) clips × ${MAX_CLIP_BYTES / 1024 / 1024} MiB a clip; each kept 2 minutes`,
        attack: 'the same turns; the measure is the most the clip tables held at once',
      },
    ];
  } finally {
    await server.close();
    await llm.close();
    await audio.close();
  }
}

/** Stored data: every credit rated with the largest transcript, and feedback as fast as allowed. */
async function storageAttack(log: (line: string) => void): Promise<AbuseFigure[]> {
  const server = await startServer({});
  try {
    const c = server.config;
    const a = attacker(server, 'storage-attacker@bench.example');
    await a.login();
    const setId = await a.setId();
    const transcript = largeTranscript();
    let rated = 0;
    while (a.inTime()) {
      const minted = await a.mint(setId);
      if (!minted) break;
      const answer = await a.request('POST', '/interview/rate-transcript', {
        body: { questionSetId: setId, sessionId: minted.sessionId, durationSeconds: 600, transcripts: transcript },
      });
      if (answer.status === 200) rated += 1;
      else break;
    }
    for (let i = 0; i < 20 && a.inTime(); i++) {
      await a.request('POST', '/user/feedback', {
        body: { feedback: randomText(FEEDBACK_MAX_LENGTH), topic: 'JavaScript', questionIndex: 1 },
      });
    }
    const [account] = (
      (await server.app.appContext.db.execute(sql.raw(`select id from accounts where email = '${a.email}'`))) as unknown as {
        rows: Array<{ id: number }>;
      }
    ).rows;
    const bytes = await storedBytes(server.app.appContext.db, account?.id ?? -1);
    log(`  storage attack: ${rated} interviews rated, ${(bytes / 1e6).toFixed(2)} MB stored (${a.statusLine()})`);
    const perInterview = MAX_TRANSCRIPT_TOTAL_TEXT * UTF8_PER_UNIT;
    const ratings = Math.min(c.freeSessionLimit, c.callLimits.rating.perAccount);
    const perMinute = ratings * 2 * perInterview + c.callLimits.feedback.perAccount * FEEDBACK_MAX_LENGTH * UTF8_PER_UNIT;
    return [
      {
        figure: 'Stored bytes of the account (transcripts, ratings, session turns, feedback)',
        measured: bytes,
        bound: Math.min(perMinute, c.accountStorageBytes + 2 * perInterview),
        unit: 'bytes',
        boundFrom: `min(${ratings} interviews (FREE_SESSION_LIMIT, RATING_ACCOUNT_RATE_LIMIT) × 2 × ${MAX_TRANSCRIPT_TOTAL_TEXT.toLocaleString('en-US')} characters × ${UTF8_PER_UNIT} bytes (the transcript, and a rating quoting it) + FEEDBACK_ACCOUNT_RATE_LIMIT ${c.callLimits.feedback.perAccount} × ${FEEDBACK_MAX_LENGTH} characters, ACCOUNT_STORAGE_MB ${c.accountStorageBytes / 1024 / 1024} MiB + one interview past it)`,
        attack: `every credit rated with a ${MAX_TRANSCRIPT_TOTAL_TEXT.toLocaleString('en-US')}-character transcript of random letters, feedback of ${FEEDBACK_MAX_LENGTH} characters 20 times`,
      },
    ];
  } finally {
    await server.close();
  }
}

/** OpenAI Realtime: ten concurrent SDP offers per token, every resume, each with ten offers. */
async function realtimeAttack(log: (line: string) => void): Promise<AbuseFigure[]> {
  const upstream = await startFakeRealtimeServer();
  const server = await startServer({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: upstream.baseUrl });
  try {
    const c = server.config;
    const a = attacker(server, 'realtime-attacker@bench.example');
    await a.login();
    const setId = await a.setId();
    // Three concurrent offers a token: SDP offers are limited per address (TOKEN_RATE_LIMIT), so more would hide later sessions.
    const offers = (token: string, sdpUrl: string) =>
      Promise.all(
        Array.from({ length: 3 }, () =>
          a.request('POST', `${new URL(sdpUrl, server.url).pathname}${new URL(sdpUrl, server.url).search}`, {
            raw: OFFER,
            contentType: 'application/sdp',
            headers: { authorization: `Bearer ${token}` },
          }),
        ),
      );
    let sessions = 0;
    while (a.inTime()) {
      const minted = await a.mint(setId);
      if (!minted?.sdpUrl) break;
      sessions += 1;
      await offers(minted.token, minted.sdpUrl);
      for (let resume = 0; resume < MAX_RESUMES + 2 && a.inTime(); resume++) {
        const next = await a.request<{ client_secret?: { value: string }; sdpUrl?: string }>(
          'POST',
          `/interview/sessions/${minted.sessionId}/resume`,
        );
        if (next.status !== 200 || !next.body.client_secret || !next.body.sdpUrl) break;
        await offers(next.body.client_secret.value, next.body.sdpUrl);
      }
      // Abandon: no credit back for a session that connected, and its call is hung up.
      await a.request('POST', `/interview/sessions/${minted.sessionId}/abandon`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    log(
      `  realtime attack: ${sessions} sessions, ${upstream.calls.length} calls opened upstream, ${upstream.liveCalls().length} still live (${a.statusLine()})`,
    );
    return [
      {
        figure: 'OpenAI Realtime calls opened',
        measured: upstream.calls.length,
        bound: c.freeSessionLimit * (1 + MAX_RESUMES),
        unit: 'calls',
        boundFrom: `FREE_SESSION_LIMIT ${c.freeSessionLimit} × (1 + ${MAX_RESUMES} resumes); each call ends by MAX_SESSION_MINUTES ${c.maxSessionMinutes}`,
        attack: 'three concurrent SDP offers per token, every resume (and two more) with three more, then abandon',
      },
      {
        figure: 'OpenAI Realtime calls still running after the attack',
        measured: upstream.liveCalls().length,
        bound: 0,
        unit: 'calls',
        boundFrom: 'an abandoned session hangs its call up',
        attack: 'the same sessions, abandoned',
      },
    ];
  } finally {
    await server.close();
    await upstream.close();
  }
}

/** Issue 33 item 1: a WAV announcing 1 s in its first data chunk, with a second data chunk a decoder plays too. */
async function wavChunksAttack(log: (line: string) => void): Promise<AbuseFigure[]> {
  const audio = await startFakeAudioServer({ apiKey: null, ...MODELS, defaultTranscript: '' });
  const server = await startServer(audio.pipelineSettings);
  try {
    const c = server.config;
    const a = attacker(server, 'wav-attacker@bench.example');
    await a.login();
    const minted = await a.mint(await a.setId());
    if (!minted) throw new Error('the WAV attack could not mint a session');
    const secondChunk = (bytes: number) => {
      const header = Buffer.alloc(8);
      header.write('data', 0, 'ascii');
      header.writeUInt32LE(bytes, 4);
      return Buffer.concat([header, Buffer.alloc(bytes, 0x11)]);
    };
    // 1 s announced (16 kHz mono, 32,000 bytes a second), then 9 MiB more: about 5 minutes to a decoder.
    const wav = Buffer.concat([pcmWav(1), secondChunk(9 * 1024 * 1024)]);
    const realSeconds = (wav.length - 44) / 32_000;
    const answer = await a.request('POST', '/interview/speech-answer', {
      raw: wav,
      contentType: 'audio/wav',
      headers: { 'x-session-token': minted.token },
    });
    const [row] = (
      (await server.app.appContext.db.execute(
        sql.raw(`select speech_seconds from interview_sessions where id = '${minted.sessionId.replace(/'/g, '')}'`),
      )) as unknown as { rows: Array<{ speech_seconds: number }> }
    ).rows;
    const counted = Number(row?.speech_seconds ?? 0);
    const sent = audio.requests.filter((r) => r.kind === 'stt').length;
    log(
      `  WAV attack: ${realSeconds.toFixed(0)} s in the file (1 s announced), answer ${answer.status}, ${sent} transcriptions, ${counted} s counted`,
    );
    return [
      {
        figure: 'Two-data-chunk WAV (1 s announced, 9 MiB more): seconds sent to speech-to-text',
        measured: sent === 0 ? 0 : Math.round(realSeconds),
        bound: c.maxAnswerSeconds,
        unit: 'seconds',
        boundFrom: `MAX_ANSWER_SECONDS ${c.maxAnswerSeconds}, counted from every byte after the first data chunk (answered ${answer.status}; the file holds ${Math.round(realSeconds)} s)`,
        attack: 'one spoken answer whose first data chunk says 1 s, followed by a second data chunk of 9 MiB that ffmpeg plays',
      },
    ];
  } finally {
    await server.close();
    await audio.close();
  }
}

/** /healthz latencies while `work` runs, checked every 20 ms, and the process's resident memory at its peak. */
async function whileHealthChecked<T>(
  url: string,
  work: () => Promise<T>,
): Promise<{ result: T; p99Ms: number; maxMs: number; rssPeak: number }> {
  const latencies: number[] = [];
  let rssPeak = process.memoryUsage().rss;
  let running = true;
  const checks = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${url}/healthz`).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - started);
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const result = await work();
    return { result, ...latenciesOf(latencies), rssPeak: Math.max(rssPeak, process.memoryUsage().rss) };
  } finally {
    running = false;
    await checks;
  }
}

function latenciesOf(latencies: number[]): { p99Ms: number; maxMs: number } {
  const sorted = [...latencies].sort((x, y) => x - y);
  return {
    p99Ms: Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0),
    maxMs: Math.round(sorted.at(-1) ?? 0),
  };
}

/** Issue 33 item 2: the admin's list pages and export over a table of the largest ratings. */
async function adminListsAttack(log: (line: string) => void): Promise<AbuseFigure[]> {
  const ROWS = 500;
  const server = await startServer({});
  try {
    const db = server.app.appContext.db;
    const transcript = JSON.stringify(largeTranscript());
    const markdown = `## Summary\n\n${randomText(4000)}`;
    // 500 ratings of 200,000 characters each, written in one statement (each value compressed on its own, as a rating's is).
    await db.execute(sql`
      insert into events (event_type, user_email, topic, question_set_index, duration_seconds, transcript, rating_status, rating_markdown, score, rater)
      select 'RATE', 'big' || g || '@bench.example', 'JavaScript', 0, 600, ${transcript}::jsonb, 'rated', ${markdown}, 50, 'rubric'
      from generate_series(1, ${ROWS}) g`);
    const admin = { 'x-admin-secret': ADMIN_SECRET };
    const fetchAll = async (path: string) => {
      const started = performance.now();
      const res = await fetch(`${server.url}${path}`, { headers: admin });
      let bytes = 0;
      const reader = res.body?.getReader();
      for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) bytes += part.value.length;
      return { status: res.status, bytes, ms: Math.round(performance.now() - started) };
    };
    globalThis.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const page = await whileHealthChecked(server.url, () => fetchAll('/api/events'));
    const large = await whileHealthChecked(server.url, () => fetchAll('/api/events?limit=500'));
    const csv = await whileHealthChecked(server.url, () => fetchAll('/api/admin/exports/ratings.csv'));
    const growth = Math.max(page.rssPeak, large.rssPeak, csv.rssPeak) - rssBefore;
    for (const [name, m] of [
      ['events page (100)', page],
      ['events page (limit=500)', large],
      ['ratings.csv', csv],
    ] as const)
      log(
        `  admin lists: ${name}: ${m.result.status}, ${(m.result.bytes / 1e6).toFixed(2)} MB in ${m.result.ms} ms; /healthz p99 ${m.p99Ms} ms, max ${m.maxMs} ms`,
      );
    log(`  admin lists: resident memory +${(growth / 1e6).toFixed(0)} MB at the peak`);
    // A row: 6 entries of 300 characters and 300 of Markdown, at most 3 bytes each, and its other fields and telemetry.
    const rowBound = (EVENT_PREVIEW_ENTRIES + 1) * EVENT_PREVIEW_CHARS * UTF8_PER_UNIT + 2048;
    const healthBound = 100;
    const figure = (name: string, m: typeof page, bound: number, rows: number): AbuseFigure[] => [
      {
        figure: `Admin ${name}: bytes over ${ROWS} ratings of ${MAX_TRANSCRIPT_TOTAL_TEXT.toLocaleString('en-US')} characters`,
        measured: m.result.bytes,
        bound,
        unit: 'bytes',
        boundFrom:
          rows > 0
            ? `${rows} rows × (${EVENT_PREVIEW_ENTRIES} entries + the Markdown) × ${EVENT_PREVIEW_CHARS} characters × ${UTF8_PER_UNIT} bytes + 2 KB a row (answered in ${m.result.ms} ms)`
            : `every rating whole, streamed (answered in ${m.result.ms} ms)`,
        attack: `GET ${name}, read to the end`,
      },
      {
        figure: `/healthz p99 during the ${name}`,
        measured: m.p99Ms,
        bound: healthBound,
        unit: 'ms',
        boundFrom: `issue 33's target (max ${m.maxMs} ms; checked every 20 ms)`,
        attack: `GET /healthz every 20 ms while the ${name} is read`,
      },
    ];
    return [
      ...figure('/api/events', page, 100 * rowBound, 100),
      ...figure('/api/events?limit=500', large, 500 * rowBound, 500),
      ...figure('/api/admin/exports/ratings.csv', csv, ROWS * (MAX_TRANSCRIPT_TOTAL_TEXT * UTF8_PER_UNIT + 64 * 1024), 0),
      {
        figure: 'Resident memory growth of the process (server and PGlite) during the lists and the export',
        measured: Math.max(0, growth),
        bound: 200 * 1024 * 1024,
        unit: 'bytes',
        boundFrom: "issue 33's target: +200 MB whatever the table holds",
        attack: 'the three reads above, one after another',
      },
    ];
  } finally {
    await server.close();
  }
}

/** Issue 33 item 6: the question-set editor's language-model calls, each first request failing so that every call retries. */
async function editorAttack(log: (line: string) => void): Promise<AbuseFigure[]> {
  const llm = await startFakeLlmServer();
  let n = 0;
  llm.setFallback({
    decide: () => {
      n += 1;
      // Every other request fails: each call of ours takes a request and its retry.
      return n % 2 === 1
        ? { status: 500, message: 'overloaded' }
        : { content: JSON.stringify({ accepted: ['keeps its scope'], contradicted: [] }) };
    },
  });
  const server = await startServer({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'bench-llm' });
  try {
    const c = server.config;
    const admin = { 'x-admin-secret': ADMIN_SECRET, 'content-type': 'application/json' };
    const set = {
      name: 'Bench set',
      index: 1,
      isPremium: false,
      requiresFeedback: false,
      instructions: '',
      questions: ['What is a closure?'],
      modelAnswers: '### 1. What is a closure?\n\nA function with its scope.\n\n**Key points:** keeps access to its outer scope',
    };
    const huge = { ...set, modelAnswers: `${set.modelAnswers}\n\n${randomText(190_000)}` };
    const statuses = new Map<number, number>();
    let accepted = 0;
    const started = Date.now();
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 200) accepted += 1;
      return res.status;
    };
    // Suggestions (10 a minute per address) and language-model judgements of a 200,000-character set, until the hour's budget answers 429.
    for (let i = 0; Date.now() - started < ATTACK_SECONDS * 1000; i++) {
      const status =
        i % 2 === 0
          ? await post('/api/admin/question-sets/suggest-phrasings', {
              set,
              questionNumber: 1,
              keyPoint: 'keeps access to its outer scope',
            })
          : await post('/api/admin/question-sets/try-answer', {
              set: i % 4 === 1 ? huge : set,
              questionNumber: 1,
              answer: 'It keeps its scope.',
              languageModel: true,
            });
      if (status === 429 && (statuses.get(429) ?? 0) > 20) break;
    }
    const requests = llm.requests.length;
    const bytes = llm.requests.reduce((sum, r) => sum + JSON.stringify(r.body).length, 0);
    const largest = Math.max(0, ...llm.requests.map((r) => JSON.stringify(r.body).length));
    const withoutMax = llm.requests.filter((r) => typeof r.body.max_tokens !== 'number').length;
    const statusLine = [...statuses.entries()].map(([status, k]) => `${k} × ${status}`).join(', ');
    log(
      `  editor attack: ${accepted} accepted calls made ${requests} model requests, ${(bytes / 1e6).toFixed(2)} MB of prompt, largest ${largest} (${statusLine})`,
    );
    return [
      {
        figure: 'Editor: model requests in the hour',
        measured: requests,
        bound: c.editorLlmCallsPerHour,
        unit: 'calls',
        boundFrom: `EDITOR_LLM_CALLS_PER_HOUR ${c.editorLlmCallsPerHour}, every request counted (${accepted} editor calls accepted, each first request failing so each retried; ${requests ? (requests / Math.max(1, accepted)).toFixed(1) : 0} requests an accepted call)`,
        attack:
          'Suggest phrasings and Try an answer with the language model, alternately, half of the latter on a set of 190,000 characters of model answers',
      },
      {
        figure: 'Editor: prompt characters sent in the hour',
        measured: bytes,
        bound: c.editorLlmPromptCharsPerHour,
        unit: 'characters',
        boundFrom: `EDITOR_LLM_PROMPT_CHARS_PER_HOUR ${c.editorLlmPromptCharsPerHour.toLocaleString('en-US')}`,
        attack: 'the same calls',
      },
      {
        figure: 'Editor: the largest single request',
        measured: largest,
        bound: EDITOR_MAX_PROMPT_CHARS,
        unit: 'characters',
        boundFrom: `EDITOR_MAX_PROMPT_CHARS ${EDITOR_MAX_PROMPT_CHARS.toLocaleString('en-US')} (a larger one answers 413 unsent)`,
        attack: 'Try an answer on the 190,000-character set',
      },
      {
        figure: 'Editor: model requests without max_tokens',
        measured: withoutMax,
        bound: 0,
        unit: 'calls',
        boundFrom: 'every request bounds its answer',
        attack: 'the same calls',
      },
    ];
  } finally {
    await server.close();
    await llm.close();
  }
}

export async function runAbuse(log: (line: string) => void): Promise<AbuseResult> {
  const llm = await llmAttack(log);
  const figures = [
    ...llm.figures,
    ...(await sttAttack(log)),
    ...(await ttsAttack(log)),
    ...(await storageAttack(log)),
    ...(await realtimeAttack(log)),
    ...(await wavChunksAttack(log)),
    ...(await editorAttack(log)),
  ];
  const calls = figures.filter((f) => f.unit === 'calls' && !f.figure.includes('still running') && !f.figure.startsWith('Editor'));
  figures.push({
    figure: 'Upstream calls of every kind (each attack at its most, summed)',
    measured: calls.reduce((sum, f) => sum + f.measured, 0),
    bound: calls.reduce((sum, f) => sum + f.bound, 0),
    unit: 'calls',
    boundFrom: 'the sum of the bounds above (an account cannot reach them all in one minute: the turn calls are one limit)',
    attack: 'the attacks above',
  });
  // The admin's lists last: the 500 ratings they read are not an account's (issue 33 item 2).
  figures.push(...(await adminListsAttack(log)));
  for (const f of figures) log(`  ${f.figure}: ${f.measured.toLocaleString('en-US')} ${f.unit} (bound ${f.bound.toLocaleString('en-US')})`);
  const c = llm.settings;
  return {
    attackSeconds: ATTACK_SECONDS,
    settings: {
      FREE_SESSION_LIMIT: c.freeSessionLimit,
      TURN_ACCOUNT_RATE_LIMIT: c.callLimits.turn.perAccount,
      RATING_ACCOUNT_RATE_LIMIT: c.callLimits.rating.perAccount,
      FEEDBACK_ACCOUNT_RATE_LIMIT: c.callLimits.feedback.perAccount,
      RATING_RETRY_ATTEMPTS: c.ratingRetryAttempts,
      SESSION_SPEECH_ANSWERS: c.sessionSpeechAnswers,
      SESSION_SPEECH_SECONDS: c.sessionSpeechSeconds,
      MAX_ANSWER_SECONDS: c.maxAnswerSeconds,
      SESSION_AUDIO_CLIPS: c.sessionAudioClips,
      ACCOUNT_STORAGE_MB: c.accountStorageBytes / 1024 / 1024,
      MAX_SESSION_MINUTES: c.maxSessionMinutes,
    },
    figures,
    notes: [
      `Load average (1, 5, 15 min) at the end of the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} on ${cpus().length} cores (a shared machine: the latencies and the memory are under that load).`,
      'Output tokens are bounded by max_tokens on every completion request (interviewer turn 400, closing 200, rating 4,000, phrasings 600).',
      'The admin rows (item 2) read 500 ratings inserted straight into the database, not an account the minute could fill; the process measured holds the server and PGlite.',
      'Interviewer clips: the fake text-to-speech server sends 256 KiB a part; the bound is what clips of 4 MiB (the most one may hold) would take.',
      "An OpenAI Realtime call's tokens are the service's to count: the server bounds the calls (above) and each call's length (MAX_SESSION_MINUTES), not the tokens in between.",
    ],
  };
}
