/**
 * OpenAI's models as this server uses them: the defaults of the realtime, speech-pipeline and
 * text providers, and the list prices a session's estimated cost is computed from
 * (services/session-cost.ts). Typed with the official `openai` package's unions, so a renamed
 * model is a compile error; realtime-defaults.test.ts and speech-defaults.test.ts check the
 * defaults against the package's deprecation notes. server/config.ts reads its defaults here.
 */
import type { AudioModel } from 'openai/resources/audio/audio';
import type { SpeechModel } from 'openai/resources/audio/speech';
import type { AudioTranscription, NoiseReductionType, RealtimeSessionCreateRequest } from 'openai/resources/realtime/realtime';
import { z } from 'zod';

/**
 * Model names the pinned SDK's types do not list yet. `openai` stays on 6.x because 7.x requires
 * Node 22 (docs/decisions/023-node-20-sdk-pins.md); 7.x lists these transcription models, 6.49
 * does not. The defaults tests fail once the installed SDK lists one, so the entry goes then.
 */
export const TRANSCRIPTION_MODELS_BEYOND_SDK = ['gpt-transcribe', 'gpt-live-transcribe'] as const;
/**
 * The transcription models `openai` 7.57's doc comments mark deprecated (shutdown 2027-02-26).
 * This list and the next are written out because 6.x's types carry no deprecation notes; the
 * defaults tests check them against the installed SDK's notes whenever it has some.
 */
export const DEPRECATED_TRANSCRIPTION_MODELS = [
  'whisper-1',
  'gpt-4o-transcribe',
  'gpt-4o-mini-transcribe',
  'gpt-4o-mini-transcribe-2025-12-15',
  'gpt-4o-transcribe-diarize',
] as const;

/** The `/audio/speech` models `openai` 7.57 marks deprecated (shutdown 2027-01-06): all of them. */
export const DEPRECATED_SPEECH_MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'gpt-4o-mini-tts-2025-12-15'] as const;

/** REALTIME_MODEL's default. */
export const DEFAULT_REALTIME_MODEL = 'gpt-realtime-2.1' satisfies NonNullable<RealtimeSessionCreateRequest['model']>;
/**
 * REALTIME_TRANSCRIPTION_MODEL's default. `whisper-1` and the `gpt-4o-*-transcribe` family are
 * deprecated (DEPRECATED_TRANSCRIPTION_MODELS).
 */
export const DEFAULT_TRANSCRIPTION_MODEL = 'gpt-transcribe' satisfies NonNullable<AudioTranscription['model']>;
/** far_field: laptop and desk microphones, the usual way candidates practise; near_field is for headsets. */
export const NOISE_REDUCTION_SETTINGS = ['far_field', 'near_field', 'off'] as const satisfies readonly (NoiseReductionType | 'off')[];
export type NoiseReductionSetting = (typeof NOISE_REDUCTION_SETTINGS)[number];

/**
 * Speech-pipeline defaults when OpenAI hosts STT and TTS: `gpt-transcribe` is the current
 * transcription model (a string beside the SDK's `AudioModel`, which lists it from 7.x on); every `/audio/speech` model is marked deprecated there (shutdown announced
 * for 2027-01-06, docs/speech-pipeline-mode.md), so TTS uses the newest alias until a successor is listed.
 */
export const DEFAULT_OPENAI_STT_MODEL: AudioModel | (typeof TRANSCRIPTION_MODELS_BEYOND_SDK)[number] = 'gpt-transcribe';
export const DEFAULT_OPENAI_TTS_MODEL: SpeechModel = 'gpt-4o-mini-tts';
export const DEFAULT_OPENAI_TTS_VOICE = 'marin';

/** The interviewer's and the AI rater's model on OpenAI when only OPENAI_API_KEY is set: cheap, fast, tools and JSON schema. */
export const DEFAULT_OPENAI_TEXT_MODEL = 'gpt-4.1-mini';

/**
 * What one model costs, in USD: token prices per 1M tokens, `audioMinute` per minute of audio
 * transcribed, `characters` per 1M characters synthesised. A session's estimated cost is its usage
 * times these (docs/decisions/012-session-telemetry.md, 022); a model missing here adds nothing.
 */
export const modelPriceSchema = z
  .object({
    textIn: z.number().nonnegative(),
    cachedTextIn: z.number().nonnegative(),
    audioIn: z.number().nonnegative(),
    cachedAudioIn: z.number().nonnegative(),
    textOut: z.number().nonnegative(),
    audioOut: z.number().nonnegative(),
    audioMinute: z.number().nonnegative(),
    characters: z.number().nonnegative(),
  })
  .partial()
  .strict();
export type ModelPrice = z.infer<typeof modelPriceSchema>;
export type ModelPrices = Record<string, ModelPrice>;

/**
 * OpenAI's list prices as published on its model pages in late 2026 (README, "Session telemetry
 * and cost"). `gpt-transcribe` had no published price when this was written: it is assumed to cost
 * what `gpt-4o-mini-transcribe` does. `gpt-4o-mini-tts` bills tokens; $15 per 1M characters is its
 * $0.015 per minute of speech at about 1,000 characters a minute. MODEL_PRICES overrides any entry.
 */
export const DEFAULT_MODEL_PRICES: ModelPrices = {
  'gpt-realtime-2.1': { textIn: 4, cachedTextIn: 0.4, audioIn: 32, cachedAudioIn: 0.4, textOut: 24, audioOut: 64 },
  'gpt-realtime-2': { textIn: 4, cachedTextIn: 0.4, audioIn: 32, cachedAudioIn: 0.4, textOut: 24, audioOut: 64 },
  'gpt-realtime-1.5': { textIn: 4, cachedTextIn: 0.4, audioIn: 32, cachedAudioIn: 0.4, textOut: 16, audioOut: 64 },
  'gpt-realtime-2.1-mini': { textIn: 0.6, cachedTextIn: 0.06, audioIn: 10, cachedAudioIn: 0.3, textOut: 2.4, audioOut: 20 },
  'gpt-transcribe': { audioIn: 1.25, textIn: 1.25, textOut: 5, audioMinute: 0.003 },
  'gpt-4o-mini-transcribe': { audioIn: 1.25, textIn: 1.25, textOut: 5, audioMinute: 0.003 },
  'gpt-4o-transcribe': { audioIn: 2.5, textIn: 2.5, textOut: 10, audioMinute: 0.006 },
  'whisper-1': { audioMinute: 0.006 },
  'gpt-4o-mini-tts': { characters: 15 },
  'tts-1': { characters: 15 },
  'tts-1-hd': { characters: 30 },
  // Text models for the interviewer and the AI rater (DEFAULT_OPENAI_TEXT_MODEL is gpt-4.1-mini).
  'gpt-4.1': { textIn: 2, cachedTextIn: 0.5, textOut: 8 },
  'gpt-4.1-mini': { textIn: 0.4, cachedTextIn: 0.1, textOut: 1.6 },
  'gpt-4.1-nano': { textIn: 0.1, cachedTextIn: 0.025, textOut: 0.4 },
  'gpt-4o-mini': { textIn: 0.15, cachedTextIn: 0.075, textOut: 0.6 },
};
