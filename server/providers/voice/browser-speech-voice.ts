/**
 * The voice provider when no OpenAI key is set: the browser speaks and listens itself and asks
 * POST /interview/turn for each interviewer line, proving the session with this random token.
 */
import { randomBytes } from 'node:crypto';
import type { VoiceProvider } from '../types';

/** A browser-speech session token is good for this long (a long interview fits). */
export const BROWSER_SPEECH_TOKEN_TTL_SECONDS = 2 * 60 * 60;

export function createBrowserSpeechVoice(now: () => number = Date.now): VoiceProvider {
  return {
    transport: 'browser-speech',
    async createSession({ sessionId }) {
      return {
        transport: 'browser-speech',
        sessionId,
        client_secret: {
          value: `bs_${randomBytes(32).toString('base64url')}`,
          expires_at: Math.floor(now() / 1000) + BROWSER_SPEECH_TOKEN_TTL_SECONDS,
        },
      };
    },
  };
}
