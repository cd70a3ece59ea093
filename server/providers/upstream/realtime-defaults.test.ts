/**
 * The realtime defaults against the official `openai` package as installed: each default must be
 * one of the values its types list (or, for transcription, one of the newer names it does not list
 * yet: TRANSCRIPTION_MODELS_BEYOND_SDK), and must not be deprecated. Read from the package's own
 * declaration file, so upgrading the SDK re-checks them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { DEFAULT_TRANSCRIPTION_MODEL, DEPRECATED_TRANSCRIPTION_MODELS, TRANSCRIPTION_MODELS_BEYOND_SDK } from '../../openai-models';
import { buildRealtimeSession, DEFAULT_VOICE } from '../voice/realtime-session-config';

const require = createRequire(import.meta.url);
const sdkTypes = readFileSync(path.join(path.dirname(require.resolve('openai')), 'resources/realtime/realtime.d.ts'), 'utf8');

/** The string literals of the union declared as `name?: ...;` inside `interface owner { ... }`. */
function unionOf(owner: string, field: string): string[] {
  const start = sdkTypes.indexOf(`export interface ${owner} {`);
  expect(start, `${owner} in the SDK types`).toBeGreaterThanOrEqual(0);
  const body = sdkTypes.slice(start, sdkTypes.indexOf('\n}\n', start));
  const line = new RegExp(`\\n\\s*${field}\\?: ([^;]+);`).exec(body)?.[1] ?? '';
  return [...line.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

/** The doc comment's "Deprecated values:" list just above `field` in `owner`. */
function deprecatedOf(owner: string, field: string): string[] {
  const start = sdkTypes.indexOf(`export interface ${owner} {`);
  const body = sdkTypes.slice(start, sdkTypes.indexOf('\n}\n', start));
  const fieldAt = body.search(new RegExp(`\\n\\s*${field}\\?:`));
  const comment = body.slice(body.lastIndexOf('/**', fieldAt), fieldAt);
  const section = /Deprecated values:([\s\S]*?)(\*\/|$)/.exec(comment)?.[1] ?? '';
  return [...section.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

const set = {
  id: 1,
  name: 'SQL',
  index: 1,
  isPremium: false,
  requiresFeedback: false,
  questions: ['Q?'],
  instructions: '',
  modelAnswers: '',
};

describe('realtime defaults against the SDK', () => {
  it("the transcription model is a current, non-deprecated value (the SDK's or one it does not list yet)", () => {
    const sdkKnown = unionOf('AudioTranscription', 'model');
    const sdkDeprecated = deprecatedOf('AudioTranscription', 'model');
    expect(sdkKnown).toContain('gpt-4o-mini-transcribe');
    // An entry the installed SDK lists is stale: take it out of TRANSCRIPTION_MODELS_BEYOND_SDK.
    expect(sdkKnown.filter((model) => (TRANSCRIPTION_MODELS_BEYOND_SDK as readonly string[]).includes(model))).toEqual([]);
    // The written-out list holds at least what the installed SDK marks deprecated (6.x marks none).
    expect(DEPRECATED_TRANSCRIPTION_MODELS).toEqual(expect.arrayContaining(sdkDeprecated));
    expect(DEPRECATED_TRANSCRIPTION_MODELS).toContain('gpt-4o-mini-transcribe');
    expect([...sdkKnown, ...TRANSCRIPTION_MODELS_BEYOND_SDK]).toContain(DEFAULT_TRANSCRIPTION_MODEL);
    expect(DEPRECATED_TRANSCRIPTION_MODELS).not.toContain(DEFAULT_TRANSCRIPTION_MODEL);
    expect(loadConfig({}).realtimeTranscriptionModel).toBe(DEFAULT_TRANSCRIPTION_MODEL);
  });

  it('the model, voice and noise reduction of the bound session are SDK values; far_field by default, a setting changes it', () => {
    const config = loadConfig({});
    expect(unionOf('RealtimeSessionCreateRequest', 'model')).toContain(config.realtimeModel);
    expect(unionOf('RealtimeSession', 'voice')).toContain(DEFAULT_VOICE);
    expect(sdkTypes).toMatch(/export type NoiseReductionType = 'near_field' \| 'far_field';/);
    expect(config.realtimeNoiseReduction).toBe('far_field');
    const session = buildRealtimeSession(set, { model: config.realtimeModel, noiseReduction: config.realtimeNoiseReduction });
    expect(session.audio?.input?.noise_reduction).toEqual({ type: 'far_field' });
    expect(session.output_modalities).toEqual(['audio']);
    const near = loadConfig({ REALTIME_NOISE_REDUCTION: 'near_field' });
    expect(
      buildRealtimeSession(set, { model: 'gpt-realtime-2.1', noiseReduction: near.realtimeNoiseReduction }).audio?.input?.noise_reduction,
    ).toEqual({ type: 'near_field' });
    expect(buildRealtimeSession(set, { model: 'gpt-realtime-2.1', noiseReduction: 'off' }).audio?.input).not.toHaveProperty(
      'noise_reduction',
    );
    expect(() => loadConfig({ REALTIME_NOISE_REDUCTION: 'studio' })).toThrow(/REALTIME_NOISE_REDUCTION/);
    expect(loadConfig({ MAX_SESSION_MINUTES: '0.5' }).maxSessionMinutes).toBe(0.5);
    expect(() => loadConfig({ MAX_SESSION_MINUTES: '90' })).toThrow(/MAX_SESSION_MINUTES/);
  });
});
