/**
 * The speech pipeline's OpenAI defaults against the official `openai` package as installed: each
 * must be a value its types list (or, for STT, a newer name it does not list yet); the STT default
 * must not be deprecated. Read from the package's own declaration files, so upgrading the SDK re-checks.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, resolveSpeechSettings } from '../../config';
import {
  DEFAULT_OPENAI_STT_MODEL,
  DEFAULT_OPENAI_TTS_MODEL,
  DEFAULT_OPENAI_TTS_VOICE,
  DEPRECATED_SPEECH_MODELS,
  DEPRECATED_TRANSCRIPTION_MODELS,
  TRANSCRIPTION_MODELS_BEYOND_SDK,
} from '../../openai-models';

const require = createRequire(import.meta.url);
const audioTypes = (file: string) => readFileSync(path.join(path.dirname(require.resolve('openai')), 'resources/audio', file), 'utf8');

/** The literals of `export type name = ...;` and the "Deprecated values:" list of its doc comment. */
function typeUnion(source: string, name: string): { known: string[]; deprecated: string[] } {
  const at = source.indexOf(`export type ${name} =`);
  expect(at, `${name} in the SDK types`).toBeGreaterThanOrEqual(0);
  const line = source.slice(at, source.indexOf(';', at));
  const comment = source.slice(source.lastIndexOf('/**', at), at);
  const section = /Deprecated values:([\s\S]*?)(\*\/|$)/.exec(comment)?.[1] ?? '';
  return { known: [...line.matchAll(/'([^']+)'/g)].map((m) => m[1]!), deprecated: [...section.matchAll(/"([^"]+)"/g)].map((m) => m[1]!) };
}

describe('speech-pipeline defaults against the SDK', () => {
  it("speech-to-text: a current, non-deprecated transcription model (the SDK's or one it does not list yet)", () => {
    const { known, deprecated } = typeUnion(audioTypes('audio.d.ts'), 'AudioModel');
    expect(known).toContain('gpt-4o-mini-transcribe');
    // An entry the installed SDK lists is stale: take it out of TRANSCRIPTION_MODELS_BEYOND_SDK.
    expect(known.filter((model) => (TRANSCRIPTION_MODELS_BEYOND_SDK as readonly string[]).includes(model))).toEqual([]);
    expect(DEPRECATED_TRANSCRIPTION_MODELS).toEqual(expect.arrayContaining(deprecated));
    expect([...known, ...TRANSCRIPTION_MODELS_BEYOND_SDK]).toContain(DEFAULT_OPENAI_STT_MODEL);
    expect(DEPRECATED_TRANSCRIPTION_MODELS).not.toContain(DEFAULT_OPENAI_STT_MODEL);
  });

  it('text-to-speech: a listed model and voice; every /audio/speech model is marked deprecated, so the newest alias is used', () => {
    const source = audioTypes('speech.d.ts');
    const { known, deprecated } = typeUnion(source, 'SpeechModel');
    expect(known).toContain(DEFAULT_OPENAI_TTS_MODEL);
    expect(DEPRECATED_SPEECH_MODELS).toEqual(expect.arrayContaining(deprecated));
    // When the SDK lists a speech model that is not deprecated, this fails: make it the default
    // (and update docs/speech-pipeline-mode.md, which names the shutdown date).
    expect(known.filter((model) => !(DEPRECATED_SPEECH_MODELS as readonly string[]).includes(model))).toEqual([]);
    expect(/\n\s*voice: ([^;]+);/.exec(source)?.[1]).toContain(`'${DEFAULT_OPENAI_TTS_VOICE}'`);
  });

  it('the pipeline on OpenAI uses them', () => {
    expect(resolveSpeechSettings(loadConfig({ VOICE_MODE: 'pipeline', OPENAI_API_KEY: 'sk-x' }))).toMatchObject({
      stt: { model: DEFAULT_OPENAI_STT_MODEL },
      tts: { model: DEFAULT_OPENAI_TTS_MODEL, voice: DEFAULT_OPENAI_TTS_VOICE },
    });
  });
});
