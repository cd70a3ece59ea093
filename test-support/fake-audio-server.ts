/**
 * A local HTTP server speaking OpenAI's audio wire protocol (`POST /v1/audio/transcriptions`,
 * multipart; `POST /v1/audio/speech`, JSON in, audio streamed out), standing in for OpenAI,
 * speaches, whisper.cpp or Kokoro-FastAPI. It checks what a real server would refuse (auth header,
 * model names, multipart fields, content types) with OpenAI-shaped errors, records every request,
 * and can fail or wait on demand. Recognition and synthesis are pluggable: unit tests use the
 * defaults (a fixed text, a few bytes), the e2e plugs in pocketsphinx and espeak-ng.
 *
 *   const audio = await startFakeAudioServer({ apiKey: 'k', sttModel: 'whisper', ttsModel: 'tts', ttsVoice: 'v' });
 *   // audio.baseUrl (…/v1), audio.requests, audio.failNext('stt', 500), audio.close()
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AudioKind = 'stt' | 'tts';

export interface RecordedAudioRequest {
  kind: AudioKind;
  headers: IncomingMessage['headers'];
  /** STT: the multipart text fields (model, language, response_format, ...). TTS: the JSON body. */
  fields: Record<string, unknown>;
  /** STT: the uploaded file. */
  file?: { name: string; type: string; bytes: Buffer };
  /** When the request arrived (performance.now() of this process). */
  at: number;
  /** STT: when the transcript was sent; TTS: when the first audio bytes were sent. */
  answeredAt?: number;
}

export interface FakeAudioOptions {
  /** The bearer key required; null: no Authorization header may be sent. */
  apiKey: string | null;
  sttModel: string;
  ttsModel: string;
  ttsVoice: string;
  /** Default: answers `defaultTranscript`. */
  transcribe?: (file: { name: string; type: string; bytes: Buffer }) => Promise<string> | string;
  defaultTranscript?: string;
  /** Default: a few fake mp3 bytes per line. */
  synthesize?: (text: string) => Promise<Buffer> | Buffer;
  /** Fixed upstream delays (the bench uses them): before answering STT, before the first TTS byte. */
  sttDelayMs?: number;
  ttsDelayMs?: number;
  /** TTS audio is sent in this many chunks, `ttsChunkGapMs` apart (streaming). */
  ttsChunks?: number;
  ttsChunkGapMs?: number;
}

export interface FakeAudioServer {
  /** Base URL including /v1, as STT_BASE_URL / TTS_BASE_URL. */
  baseUrl: string;
  requests: RecordedAudioRequest[];
  /**
   * The next `times` requests of this kind (that `match`, when given) answer `status` with an
   * OpenAI-shaped error, or never answer when status is 'hang'.
   */
  failNext(kind: AudioKind, status: number | 'hang', times?: number, match?: (request: RecordedAudioRequest) => boolean): void;
  /** The server settings that point the speech pipeline at this fake (VOICE_MODE, STT_*, TTS_*). */
  pipelineSettings: Record<string, string>;
  close(): Promise<void>;
}

/** What the fake says an mp3 starts with: an ID3 tag, then the line (tests can read it back). */
export function fakeMp3(text: string): Buffer {
  return Buffer.concat([Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000'), Buffer.from(text)]);
}

const TTS_FORMATS = new Set(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']);
const STT_FORMATS = new Set(['json', 'text', 'verbose_json']);

function sendError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } }));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeAudioServer(options: FakeAudioOptions): Promise<FakeAudioServer> {
  const requests: RecordedAudioRequest[] = [];
  type Failure = { status: number | 'hang'; match?: (request: RecordedAudioRequest) => boolean };
  const failures: Record<AudioKind, Failure[]> = { stt: [], tts: [] };
  const takeFailure = (request: RecordedAudioRequest): number | 'hang' | undefined => {
    const list = failures[request.kind];
    const i = list.findIndex((f) => !f.match || f.match(request));
    return i < 0 ? undefined : list.splice(i, 1)[0]?.status;
  };
  const hanging = new Set<ServerResponse>();

  function authProblem(req: IncomingMessage): string | null {
    const auth = req.headers.authorization;
    if (options.apiKey === null) return auth === undefined ? null : 'This server takes no API key, but an Authorization header was sent.';
    return auth === `Bearer ${options.apiKey}` ? null : 'Incorrect API key provided.';
  }

  async function transcription(req: IncomingMessage, res: ServerResponse, at: number): Promise<void> {
    const contentType = req.headers['content-type'] ?? '';
    if (!contentType.startsWith('multipart/form-data')) return sendError(res, 400, `Expected multipart/form-data, got "${contentType}".`);
    const form = await new Response(new Uint8Array(await readBody(req)), { headers: { 'content-type': contentType } }).formData();
    const fields: Record<string, unknown> = {};
    let file: RecordedAudioRequest['file'];
    for (const [key, value] of form.entries()) {
      if (typeof value === 'string') fields[key] = value;
      else if (key === 'file') file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    }
    const recorded: RecordedAudioRequest = { kind: 'stt', headers: req.headers, fields, file, at };
    requests.push(recorded);
    const failure = takeFailure(recorded);
    if (failure === 'hang') return void hanging.add(res);
    if (failure !== undefined) return sendError(res, failure, `Injected failure ${failure}.`);
    if (!file || file.bytes.length === 0) return sendError(res, 400, 'The file field is missing or empty.');
    if (!file.type.startsWith('audio/')) return sendError(res, 400, `The file's content type "${file.type}" is not audio.`);
    if (!/\.(wav|webm|ogg|mp3|m4a|flac|mp4|mpeg|mpga)$/.test(file.name))
      return sendError(res, 400, `Unsupported file name "${file.name}".`);
    if (fields.model !== options.sttModel) return sendError(res, 404, `The model "${String(fields.model)}" does not exist.`);
    const format = typeof fields.response_format === 'string' ? fields.response_format : 'json';
    if (!STT_FORMATS.has(format)) return sendError(res, 400, `Unsupported response_format "${format}".`);
    const text = options.transcribe ? await options.transcribe(file) : (options.defaultTranscript ?? 'This is what the candidate said.');
    if (options.sttDelayMs) await wait(options.sttDelayMs);
    recorded.answeredAt = performance.now();
    if (format === 'text') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(text);
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ text }));
  }

  async function speech(req: IncomingMessage, res: ServerResponse, at: number): Promise<void> {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return sendError(res, 400, 'Expected a JSON body.');
    let fields: Record<string, unknown>;
    try {
      fields = JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
    } catch {
      return sendError(res, 400, 'The body is not JSON.');
    }
    const recorded: RecordedAudioRequest = { kind: 'tts', headers: req.headers, fields, at };
    requests.push(recorded);
    const failure = takeFailure(recorded);
    if (failure === 'hang') return void hanging.add(res);
    if (failure !== undefined) return sendError(res, failure, `Injected failure ${failure}.`);
    if (fields.model !== options.ttsModel) return sendError(res, 404, `The model "${String(fields.model)}" does not exist.`);
    if (fields.voice !== options.ttsVoice) return sendError(res, 400, `Unknown voice "${String(fields.voice)}".`);
    if (typeof fields.input !== 'string' || fields.input.trim() === '') return sendError(res, 400, 'input must be a non-empty string.');
    if (fields.input.length > 4096) return sendError(res, 400, 'input is longer than 4096 characters.');
    const format = typeof fields.response_format === 'string' ? fields.response_format : 'mp3';
    if (!TTS_FORMATS.has(format)) return sendError(res, 400, `Unsupported response_format "${format}".`);
    const audio = options.synthesize ? await options.synthesize(fields.input) : fakeMp3(fields.input);
    if (options.ttsDelayMs) await wait(options.ttsDelayMs);
    recorded.answeredAt = performance.now();
    res.writeHead(200, { 'content-type': format === 'mp3' ? 'audio/mpeg' : `audio/${format}` });
    const chunks = Math.max(1, options.ttsChunks ?? 1);
    const size = Math.ceil(audio.length / chunks);
    for (let i = 0; i < audio.length; i += size) {
      if (res.destroyed) return;
      if (i > 0 && options.ttsChunkGapMs) await wait(options.ttsChunkGapMs);
      res.write(audio.subarray(i, i + size));
    }
    res.end();
  }

  const server = createServer((req, res) => {
    const at = performance.now();
    const path = (req.url ?? '').split('?')[0];
    const kind: AudioKind | null = path === '/v1/audio/transcriptions' ? 'stt' : path === '/v1/audio/speech' ? 'tts' : null;
    if (req.method !== 'POST' || !kind) return sendError(res, 404, `No route ${req.method} ${path}.`);
    const problem = authProblem(req);
    if (problem) {
      requests.push({ kind, headers: req.headers, fields: {}, at });
      req.resume();
      return sendError(res, 401, problem);
    }
    (kind === 'stt' ? transcription : speech)(req, res, at).catch((error: unknown) => sendError(res, 500, String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    pipelineSettings: {
      VOICE_MODE: 'pipeline',
      STT_BASE_URL: `http://127.0.0.1:${port}/v1`,
      STT_MODEL: options.sttModel,
      TTS_BASE_URL: `http://127.0.0.1:${port}/v1`,
      TTS_MODEL: options.ttsModel,
      TTS_VOICE: options.ttsVoice,
    },
    failNext(kind, status, times = 1, match) {
      for (let i = 0; i < times; i++) failures[kind].push({ status, match });
    },
    close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
