/**
 * OpenAI Realtime (GA) voice provider: mints a short-lived client secret bound to the interview
 * (model, interviewer instructions, patient turn detection, transcription, close_session tool).
 * The browser then opens the WebRTC call itself with the `ek_...` value; the API key never leaves us.
 */
import { z } from 'zod';
import type { OpenAiToken } from '../../contract';
import { DEFAULT_TRANSCRIPTION_MODEL } from '../config';
import {
  buildInterviewerInstructions,
  CLOSE_SESSION_DESCRIPTION,
  CLOSE_SESSION_TOOL_NAME,
  closeSessionToolParameters,
} from './interviewer-instructions';
import { ProviderError, type VoiceProvider, type VoiceSessionInput } from './types';
import { isAbort, upstreamDetail } from './upstream';
import type { QuestionSetRecord } from '../db/schema';

/** The part of AppConfig this provider reads (structural, so tests can pass a literal). */
export interface OpenAiRealtimeConfig {
  openaiApiKey: string | null;
  /** No trailing slash, e.g. https://api.openai.com/v1 */
  openaiBaseUrl: string;
  realtimeModel: string;
  /** The speech-to-text model that writes the candidate's lines (REALTIME_TRANSCRIPTION_MODEL). */
  realtimeTranscriptionModel: string;
}

/** pino-compatible (Fastify's logger fits). */
export interface ProviderLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface OpenAiRealtimeOptions {
  /** Bounded wait for the secret; the candidate is waiting on the start button. */
  timeoutMs?: number;
  voice?: string;
}

/** Long enough to open the call after the token arrives; a started session outlives its secret. */
export const CLIENT_SECRET_TTL_SECONDS = 120;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_VOICE = 'marin';

export const PROVIDER_TEXTS = {
  rejectedKey: "The AI provider rejected the server's API key. Please ask the operator to check OPENAI_API_KEY.",
  forbidden: 'The AI provider refused this server access to the voice model (for example in this region). Please ask the operator to check the OpenAI project.',
  rateLimited: 'The AI provider is busy or its usage quota is used up. Please try again in a few minutes.',
  timeout: 'The AI provider did not answer in time. Please try again.',
  malformed: 'The AI provider sent an answer the server could not understand. Please try again later.',
  network: 'The server could not reach the AI provider. Please try again later.',
  refused: 'The AI provider could not start a voice session. Please try again later.',
  noKey: 'Voice interviews with OpenAI are not configured on this server.',
} as const;

/** The exact session bound to the secret; exported for tests and the local peer's expectations. */
export function buildRealtimeSession(
  set: QuestionSetRecord,
  model: string,
  voice: string = DEFAULT_VOICE,
  transcriptionModel: string = DEFAULT_TRANSCRIPTION_MODEL,
) {
  return {
    type: 'realtime' as const,
    model,
    instructions: buildInterviewerInstructions(set),
    output_modalities: ['audio'],
    audio: {
      input: {
        transcription: { model: transcriptionModel, language: 'en' },
        // Low eagerness waits up to ~8 s: a candidate thinking aloud is not cut off mid-answer.
        turn_detection: { type: 'semantic_vad', eagerness: 'low', create_response: true, interrupt_response: true },
        noise_reduction: { type: 'near_field' },
      },
      output: { voice },
    },
    tools: [
      {
        type: 'function',
        name: CLOSE_SESSION_TOOL_NAME,
        description: CLOSE_SESSION_DESCRIPTION,
        parameters: closeSessionToolParameters,
      },
    ],
    tool_choice: 'auto',
  };
}

export function buildClientSecretRequest(
  set: QuestionSetRecord,
  model: string,
  voice: string = DEFAULT_VOICE,
  transcriptionModel: string = DEFAULT_TRANSCRIPTION_MODEL,
) {
  return {
    expires_after: { anchor: 'created_at', seconds: CLIENT_SECRET_TTL_SECONDS },
    session: buildRealtimeSession(set, model, voice, transcriptionModel),
  };
}

const clientSecretAnswerSchema = z.object({
  value: z.string().min(1).max(2000),
  expires_at: z.number().int().positive(),
});

export function createOpenAiRealtimeVoice(
  config: OpenAiRealtimeConfig,
  log: ProviderLog,
  options: OpenAiRealtimeOptions = {},
): VoiceProvider {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const voice = options.voice ?? DEFAULT_VOICE;
  const base = config.openaiBaseUrl;

  async function createSession(input: VoiceSessionInput): Promise<OpenAiToken> {
    if (!config.openaiApiKey) throw new ProviderError(PROVIDER_TEXTS.noKey, 503);
    const url = `${base}/realtime/client_secrets`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${config.openaiApiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(buildClientSecretRequest(input.set, config.realtimeModel, voice, config.realtimeTranscriptionModel)),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (isAbort(error)) {
        log.warn({ url, timeoutMs, sessionId: input.sessionId }, 'OpenAI client secret request timed out');
        throw new ProviderError(PROVIDER_TEXTS.timeout, 504);
      }
      log.warn({ url, err: error instanceof Error ? error.message : String(error), sessionId: input.sessionId }, 'OpenAI unreachable');
      throw new ProviderError(PROVIDER_TEXTS.network, 502);
    }

    if (!res.ok) {
      // The upstream's explanation goes to the log, not to the candidate.
      const detail = await upstreamDetail(res);
      log.warn({ url, upstreamStatus: res.status, detail, sessionId: input.sessionId }, 'OpenAI refused the client secret');
      if (res.status === 401) throw new ProviderError(PROVIDER_TEXTS.rejectedKey, 502, res.status);
      // 403: a valid key without access (region not supported, project permissions), brief §8.
      if (res.status === 403) throw new ProviderError(PROVIDER_TEXTS.forbidden, 502, res.status);
      if (res.status === 429) throw new ProviderError(PROVIDER_TEXTS.rateLimited, 503, res.status);
      throw new ProviderError(PROVIDER_TEXTS.refused, 502, res.status);
    }

    let body: unknown;
    try {
      body = await res.json();
    } catch (error) {
      if (isAbort(error)) {
        log.warn({ url, timeoutMs, upstreamStatus: res.status }, 'OpenAI client secret body timed out');
        throw new ProviderError(PROVIDER_TEXTS.timeout, 504, res.status);
      }
      log.warn({ url, upstreamStatus: res.status }, 'OpenAI client secret answer is not JSON');
      throw new ProviderError(PROVIDER_TEXTS.malformed, 502, res.status);
    }
    const parsed = clientSecretAnswerSchema.safeParse(body);
    if (!parsed.success) {
      log.warn({ url, upstreamStatus: res.status, issues: parsed.error.issues.map((i) => i.path.join('.')) }, 'OpenAI client secret answer is malformed');
      throw new ProviderError(PROVIDER_TEXTS.malformed, 502, res.status);
    }
    return {
      transport: 'openai-realtime',
      client_secret: { value: parsed.data.value, expires_at: parsed.data.expires_at },
      sessionId: input.sessionId,
      sdpUrl: `${base}/realtime/calls`,
      model: config.realtimeModel,
    };
  }

  return { transport: 'openai-realtime', createSession };
}
