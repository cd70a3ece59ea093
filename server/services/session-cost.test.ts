import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_PRICES } from '../openai-models';
import { estimateCost } from './session-cost';

describe('estimateCost (docs/decisions/012-session-telemetry.md)', () => {
  it('prices cached input at the cached price and the rest at the full one', () => {
    // gpt-realtime-2.1: text 4 / 0.40 cached / 24 out, audio 32 / 0.40 cached / 64 out, per 1M tokens.
    const usd = estimateCost(
      {
        realtimeModel: 'gpt-realtime-2.1',
        responses: 1,
        textInTokens: 1000,
        cachedTextInTokens: 400,
        audioInTokens: 500,
        cachedAudioInTokens: 100,
        textOutTokens: 50,
        audioOutTokens: 200,
      },
      DEFAULT_MODEL_PRICES,
    );
    expect(usd).toBeCloseTo((600 * 4 + 400 * 0.4 + 400 * 32 + 100 * 0.4 + 50 * 24 + 200 * 64) / 1_000_000, 12);
  });

  it('prices transcription by tokens or minutes and speech by characters; an unknown model is not priced', () => {
    expect(estimateCost({ transcriptionModel: 'whisper-1', transcribedSeconds: 90 }, DEFAULT_MODEL_PRICES)).toBeCloseTo(0.009, 12);
    expect(
      estimateCost(
        { transcriptionModel: 'gpt-4o-transcribe', transcriptionAudioTokens: 1000, transcriptionTextTokens: 100 },
        DEFAULT_MODEL_PRICES,
      ),
    ).toBeCloseTo(0.0035, 12);
    expect(estimateCost({ speechModel: 'gpt-4o-mini-tts', synthesisedCharacters: 2000 }, DEFAULT_MODEL_PRICES)).toBeCloseTo(0.03, 12);
    expect(estimateCost({ speechModel: 'kokoro', synthesisedCharacters: 2000 }, DEFAULT_MODEL_PRICES)).toBeNull();
    // A name that is not a model of the table, even one every object has.
    expect(estimateCost({ speechModel: 'constructor', synthesisedCharacters: 2000 }, DEFAULT_MODEL_PRICES)).toBeNull();
  });
});
