/**
 * The voice provider of the speech pipeline: like browser speech, the session token is a random
 * secret our server checks on every turn; the speech itself runs through STT_/TTS_ servers.
 */
import { randomBytes } from 'node:crypto';
import { BROWSER_SPEECH_TOKEN_TTL_SECONDS } from './browser-speech-voice';
import type { VoiceProvider } from '../types';

export function createSpeechPipelineVoice(now: () => number = Date.now): VoiceProvider {
  return {
    transport: 'speech-pipeline',
    async createSession({ sessionId }) {
      return {
        transport: 'speech-pipeline',
        sessionId,
        client_secret: {
          value: `sp_${randomBytes(32).toString('base64url')}`,
          expires_at: Math.floor(now() / 1000) + BROWSER_SPEECH_TOKEN_TTL_SECONDS,
        },
      };
    },
  };
}
