/**
 * The speech pipeline's two upstream calls, on any OpenAI-compatible audio server (OpenAI,
 * speaches, whisper.cpp, LocalAI, Kokoro-FastAPI): `POST /audio/transcriptions` (multipart) and
 * `POST /audio/speech` (the audio streamed back). The official `openai` client does the wire
 * format, the timeout and the one retry (timeouts, connection errors, 408/409/429/5xx); errors
 * become a `SpeechError` a person can act on, never with the key in it.
 */
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError, toFile } from 'openai';
import type { SpeechEndpoint, SpeechSettings } from '../../config';
import { ProviderError } from '../types';
import { isAbort } from './plumbing';

export const STT_TIMEOUT_MS = 20_000;
/** Until the first audio bytes arrive; the rest streams, within the overall deadline. */
export const TTS_TIMEOUT_MS = 15_000;
/** The default overall deadline of one call, first byte to last (UPSTREAM_DEADLINE_SECONDS). */
export const SPEECH_DEADLINE_MS = 60_000;

/** What the interviewer's voice is asked for: plays in every browser, streams progressively. */
export const TTS_FORMAT = 'mp3';
export const TTS_CONTENT_TYPE = 'audio/mpeg';

export class SpeechError extends ProviderError {
  constructor(message: string, status: number, upstreamStatus?: number) {
    super(message, status, upstreamStatus);
    this.name = 'SpeechError';
  }
}

export interface SpeechClients {
  /** The words in one answer's audio (trimmed; may be empty for silence). */
  transcribe(audio: Buffer, contentType: string): Promise<string>;
  /** Synthesises one line; resolves when the first bytes are on their way. */
  synthesize(text: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}

export interface SpeechClientOptions {
  sttTimeoutMs?: number;
  ttsTimeoutMs?: number;
  /** Retries after the first try (one: docs/speech-pipeline-mode.md). */
  maxRetries?: number;
  /**
   * Overall deadline of one transcription, or of one synthesis from the request to the last audio
   * byte (retries included): a server that trickles is cut off (UPSTREAM_DEADLINE_SECONDS).
   */
  deadlineMs?: number;
}

function clientFor(endpoint: SpeechEndpoint, timeout: number, maxRetries: number): OpenAI {
  return new OpenAI({
    baseURL: endpoint.baseUrl,
    // The SDK insists on a key; a local server without one gets no Authorization header at all.
    apiKey: endpoint.apiKey ?? 'unused',
    defaultHeaders: endpoint.apiKey ? {} : { Authorization: null },
    // Explicit, so the SDK never picks these up from the environment.
    organization: null,
    project: null,
    timeout,
    maxRetries,
  });
}

const FILE_NAMES: Record<string, string> = {
  'audio/wav': 'answer.wav',
  'audio/x-wav': 'answer.wav',
  'audio/webm': 'answer.webm',
  'audio/ogg': 'answer.ogg',
  'audio/mpeg': 'answer.mp3',
  'audio/mp4': 'answer.m4a',
  'audio/flac': 'answer.flac',
};

/** The upload's file name tells servers like OpenAI the format; unknown types are sent as wav. */
export function fileNameFor(contentType: string): string {
  return FILE_NAMES[contentType.split(';')[0]?.trim().toLowerCase() ?? ''] ?? 'answer.wav';
}

function explain(error: unknown, what: string, where: string, apiKey: string | null, deadlineMs: number): SpeechError {
  const scrub = (text: string) => (apiKey ? text.split(apiKey).join('***') : text).replace(/\s+/g, ' ').slice(0, 200);
  if (error instanceof APIConnectionTimeoutError) return new SpeechError(`${what} (${where}) did not answer in time.`, 504);
  if (error instanceof APIUserAbortError || isAbort(error)) {
    return new SpeechError(`${what} (${where}) did not finish within ${Math.round(deadlineMs / 100) / 10} seconds.`, 504);
  }
  if (error instanceof APIError && error.status !== undefined) {
    const status = error.status;
    if (status === 401 || status === 403) return new SpeechError(`${what} (${where}) rejected the API key (HTTP ${status}).`, 502, status);
    if (status === 429) return new SpeechError(`${what} (${where}) is rate limiting requests (HTTP 429).`, 503, status);
    return new SpeechError(`${what} (${where}) answered HTTP ${status}: ${scrub(error.message)}`, 502, status);
  }
  return new SpeechError(`${what} (${where}) could not be reached.`, 502);
}

export function createSpeechClients(settings: SpeechSettings, options: SpeechClientOptions = {}): SpeechClients {
  const retries = options.maxRetries ?? 1;
  const deadlineMs = options.deadlineMs ?? SPEECH_DEADLINE_MS;
  const stt = clientFor(settings.stt, options.sttTimeoutMs ?? STT_TIMEOUT_MS, retries);
  const tts = clientFor(settings.tts, options.ttsTimeoutMs ?? TTS_TIMEOUT_MS, retries);
  const sttWhere = new URL(settings.stt.baseUrl).origin;
  const ttsWhere = new URL(settings.tts.baseUrl).origin;
  const ttsError = (error: unknown) =>
    error instanceof SpeechError ? error : explain(error, 'The text-to-speech server', ttsWhere, settings.tts.apiKey, deadlineMs);

  return {
    async transcribe(audio, contentType) {
      const type = contentType.split(';')[0]?.trim() || 'audio/wav';
      try {
        const file = await toFile(audio, fileNameFor(type), { type });
        const result = await stt.audio.transcriptions.create(
          { file, model: settings.stt.model, language: 'en', response_format: 'json' },
          { signal: AbortSignal.timeout(deadlineMs) },
        );
        return result.text.trim();
      } catch (error) {
        throw explain(error, 'The speech-to-text server', sttWhere, settings.stt.apiKey, deadlineMs);
      }
    },

    async synthesize(text, signal) {
      const deadline = AbortSignal.timeout(deadlineMs);
      let body: ReadableStream<Uint8Array>;
      try {
        const response = await tts.audio.speech.create(
          { model: settings.tts.model, voice: settings.tts.voice, input: text, response_format: TTS_FORMAT },
          { signal: signal ? AbortSignal.any([signal, deadline]) : deadline },
        );
        if (!response.body) throw new SpeechError(`The text-to-speech server (${ttsWhere}) answered no audio.`, 502);
        body = response.body as ReadableStream<Uint8Array>;
      } catch (error) {
        throw ttsError(error);
      }
      // The audio streams on under the same deadline; a cut stream fails with the sentence.
      const reader = body.getReader();
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          } catch (error) {
            controller.error(ttsError(error));
          }
        },
        cancel: (reason) => reader.cancel(reason),
      });
    },
  };
}
