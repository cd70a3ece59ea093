/**
 * OpenAI Realtime (GA) voice, owned by the server: the token call answers *our* short-lived
 * session token and our SDP address; the browser posts its offer there, and the server opens the
 * call with its own key (realtime-calls.ts), hears it over a sideband and can hang it up
 * (services/realtime-calls.ts). No OpenAI key or `ek_` secret ever reaches the browser.
 */
import { randomBytes } from 'node:crypto';
import type { OpenAiToken } from '../../contract';
import { ProviderError, type VoiceProvider, type VoiceSessionInput } from './types';

/** The part of AppConfig this provider reads (structural, so tests can pass a literal). */
export interface OpenAiRealtimeConfig {
  openaiApiKey: string | null;
  realtimeModel: string;
}

/** pino-compatible (Fastify's logger fits). */
export interface ProviderLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/** Long enough to post the offer after the token arrives; a started call outlives its token. */
export const SESSION_TOKEN_TTL_SECONDS = 120;

export const PROVIDER_TEXTS = {
  rejectedKey: "The AI provider rejected the server's API key. Please ask the operator to check OPENAI_API_KEY.",
  forbidden:
    'The AI provider refused this server access to the voice model (for example in this region). Please ask the operator to check the OpenAI project.',
  rateLimited: 'The AI provider is busy or its usage quota is used up. Please try again in a few minutes.',
  unavailable: 'The AI provider is having problems right now. Please try again in a few minutes.',
  timeout: 'The AI provider did not answer in time. Please try again.',
  malformed: 'The AI provider sent an answer the server could not understand. Please try again later.',
  network: 'The server could not reach the AI provider. Please try again later.',
  refused: 'The AI provider could not start a voice session. Please try again later.',
  noKey: 'Voice interviews with OpenAI are not configured on this server.',
} as const;

/** Where the browser posts its SDP offer (relative to the API origin). */
export function sdpPath(sessionId: string): string {
  return `/interview/sessions/${sessionId}/sdp`;
}

export function newSessionToken(): string {
  return `rt_${randomBytes(24).toString('base64url')}`;
}

export function createOpenAiRealtimeVoice(config: OpenAiRealtimeConfig): VoiceProvider {
  async function createSession(input: VoiceSessionInput): Promise<OpenAiToken> {
    if (!config.openaiApiKey) throw new ProviderError(PROVIDER_TEXTS.noKey, 503);
    return {
      transport: 'openai-realtime',
      client_secret: { value: newSessionToken(), expires_at: Math.floor(Date.now() / 1000) + SESSION_TOKEN_TTL_SECONDS },
      sessionId: input.sessionId,
      sdpUrl: sdpPath(input.sessionId),
      model: config.realtimeModel,
    };
  }
  return { transport: 'openai-realtime', createSession };
}
