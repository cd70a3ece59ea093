/**
 * OpenAI Realtime (GA) voice, owned by the server: the token call answers *our* short-lived
 * session token and our SDP address; the browser posts its offer there, and the server opens the
 * call with its own key (upstream/realtime-calls-client.ts), hears it over a sideband and can hang
 * it up (services/calls/registry.ts, services/calls/supervisor.ts). No OpenAI key or `ek_` secret ever reaches the browser.
 */
import { randomBytes } from 'node:crypto';
import type { OpenAiToken } from '../../../contract';
import { ProviderError, type VoiceProvider, type VoiceSessionInput } from '../types';
import { PROVIDER_TEXTS } from '../upstream/realtime-calls-client';

/** The part of AppConfig this provider reads (structural, so tests can pass a literal). */
export interface OpenAiRealtimeConfig {
  openaiApiKey: string | null;
  realtimeModel: string;
}

/** Long enough to post the offer after the token arrives; a started call outlives its token. */
export const SESSION_TOKEN_TTL_SECONDS = 120;

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
