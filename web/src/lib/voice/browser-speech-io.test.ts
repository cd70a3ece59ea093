import { describe, expect, it } from 'vitest';
import { pickVoice } from './browser-speech-io';

const voice = (name: string, lang: string, extra: Partial<SpeechSynthesisVoice> = {}) =>
  ({ name, lang, default: false, localService: false, voiceURI: name, ...extra }) as SpeechSynthesisVoice;

describe('pickVoice', () => {
  it('prefers the exact language, then the default or local voice of it', () => {
    const voices = [
      voice('Anna', 'de-DE', { default: true }),
      voice('Daniel', 'en-GB'),
      voice('Samantha', 'en-US'),
      voice('Alex', 'en-US', { localService: true }),
    ];
    expect(pickVoice(voices, 'en-US')?.name).toBe('Alex');
    expect(pickVoice([...voices, voice('Google US', 'en_US', { default: true })], 'en-US')?.name).toBe('Google US');
  });

  it('falls back to the same language in another region, and to none', () => {
    expect(pickVoice([voice('Anna', 'de-DE'), voice('Daniel', 'en-GB')], 'en-US')?.name).toBe('Daniel');
    expect(pickVoice([voice('Anna', 'de-DE')], 'en-US')).toBeNull();
    expect(pickVoice([], 'en-US')).toBeNull();
  });
});
