import { describe, expect, it } from 'vitest';
import { endText, millisecondsText, secondsText, transportText, usageLines, usdText } from './telemetry-format';

describe('session telemetry texts', () => {
  it('names the transport and the end', () => {
    expect(transportText({ transport: 'openai-realtime', input: null })).toBe('OpenAI Realtime');
    expect(transportText({ transport: 'browser-speech', input: 'typed' })).toBe('Browser speech (typed answers)');
    expect(endText({ endReason: 'closed-by-interviewer', endDetail: 'all questions covered' })).toBe(
      'Closed by the interviewer: all questions covered',
    );
    expect(endText({ endReason: 'expired', endDetail: null })).toBe('Expired without a rating');
    expect(endText({ endReason: null, endDetail: null })).toBe('Not ended');
  });

  it('writes durations and money', () => {
    expect(secondsText(45)).toBe('45 s');
    expect(secondsText(450)).toBe('7 min 30 s');
    expect(secondsText(1800)).toBe('30 min');
    expect(secondsText(3900)).toBe('1 h 5 min');
    expect(millisecondsText(550)).toBe('550 ms');
    expect(millisecondsText(1234)).toBe('1.2 s');
    expect(usdText(2.5)).toBe('$2.50');
    expect(usdText(0.004108)).toBe('$0.0041');
    expect(usdText(0)).toBe('$0.00');
  });

  it('writes one line per part of the usage', () => {
    expect(
      usageLines({
        realtimeModel: 'gpt-realtime-2.1-mini',
        responses: 3,
        textInTokens: 1200,
        audioInTokens: 600,
        cachedTextInTokens: 100,
        textOutTokens: 60,
        audioOutTokens: 300,
        transcriptionModel: 'gpt-transcribe',
        transcriptionAudioTokens: 100,
        transcriptionTextTokens: 30,
      }),
    ).toEqual([
      'gpt-realtime-2.1-mini: 3 responses; in 1,200 text + 600 audio tokens (100 cached); out 60 text + 300 audio tokens',
      'Transcription (gpt-transcribe): 100 audio + 30 text tokens',
    ]);
    expect(
      usageLines({ transcriptionModel: 'whisper', transcribedSeconds: 12.25, speechModel: 'kokoro', synthesisedCharacters: 1500 }),
    ).toEqual(['Transcription (whisper): 12.3 s of audio', 'Speech (kokoro): 1,500 characters']);
    expect(usageLines({})).toEqual([]);
    expect(usageLines({ llmModel: 'gpt-4.1-mini', llmCalls: 3, llmInTokens: 2400, llmCachedInTokens: 1024, llmOutTokens: 310 })).toEqual([
      'Language model (gpt-4.1-mini, interviewer and rater): 3 calls; in 2,400 tokens (1,024 cached); out 310 tokens',
    ]);
    expect(usageLines({ llmModel: 'local', llmCalls: 5, raterCalls: 3, llmInTokens: 0, llmOutTokens: 0 })).toEqual([
      'Language model (local, interviewer and rater): 5 calls (3 by the rater); in 0 tokens; out 0 tokens',
    ]);
  });
});
