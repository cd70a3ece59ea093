/**
 * Picks the voice transport the token names. Each is its own lazy chunk: a browser-speech session
 * never downloads the WebRTC code and the first screen downloads neither.
 */
import type { TokenResponse } from '../../../../contract';
import type { TransportContext, VoiceTransport } from './types';

export async function createTransport(token: TokenResponse, ctx: TransportContext): Promise<VoiceTransport> {
  if (token.transport === 'openai-realtime') {
    const { createOpenAiTransport } = await import('./openai-transport');
    return createOpenAiTransport(token, ctx);
  }
  const { createBrowserSpeechTransport } = await import('./browser-speech-transport');
  return createBrowserSpeechTransport(token, ctx);
}
