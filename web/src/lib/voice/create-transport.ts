/**
 * Picks the voice transport the token names. Each is its own lazy chunk: a browser-speech session
 * never downloads the WebRTC code, only a speech-pipeline session downloads the voice-activity
 * detector, and the first screen downloads none of them.
 */
import type { TokenResponse } from '../../../../contract';
import type { TransportContext, VoiceTransport } from './types';

export async function createTransport(token: TokenResponse, ctx: TransportContext): Promise<VoiceTransport> {
  switch (token.transport) {
    case 'openai-realtime': {
      const { createOpenAiTransport } = await import('./openai-transport');
      return createOpenAiTransport(token, ctx);
    }
    case 'browser-speech': {
      const { createBrowserSpeechTransport } = await import('./browser-speech-transport');
      return createBrowserSpeechTransport(token, ctx);
    }
    case 'speech-pipeline': {
      const { createSpeechPipelineTransport } = await import('./speech-pipeline-transport');
      return createSpeechPipelineTransport(token, ctx);
    }
    default:
      // A token of a transport this switch does not know is a type error here, never a silent
      // fallback to another transport (docs/decisions/004-one-transport-seam.md).
      return unknownTransport(token);
  }
}

function unknownTransport(token: never): never {
  throw new Error(`This app does not know the voice transport "${(token as { transport?: string }).transport}".`);
}
