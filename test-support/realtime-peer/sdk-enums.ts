/**
 * The value lists the local peer accepts, written out for zod and tied to the official `openai`
 * package's types: if the SDK adds, renames or drops a value, `npm run typecheck` fails here until
 * the list follows, so the peer never accepts less or more than the service's own types.
 */
import type {
  AudioTranscription,
  NoiseReductionType,
  RealtimeSession,
  RealtimeSessionCreateRequest,
} from 'openai/resources/realtime/realtime';
// The service's transcription models the pinned SDK (6.x, for Node 20) does not list yet.
import { TRANSCRIPTION_MODELS_BEYOND_SDK } from '../../server/openai-models';

/** The named members of an SDK union (drops the open-ended `string & {}`). */
type Known<T> = T extends string ? (string extends T ? never : T) : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const REALTIME_MODELS = [
  'gpt-realtime',
  'gpt-realtime-1.5',
  'gpt-realtime-2',
  'gpt-realtime-2.1',
  'gpt-realtime-2.1-mini',
  'gpt-realtime-2025-08-28',
  'gpt-4o-realtime-preview',
  'gpt-4o-realtime-preview-2024-10-01',
  'gpt-4o-realtime-preview-2024-12-17',
  'gpt-4o-realtime-preview-2025-06-03',
  'gpt-4o-mini-realtime-preview',
  'gpt-4o-mini-realtime-preview-2024-12-17',
  'gpt-realtime-mini',
  'gpt-realtime-mini-2025-10-06',
  'gpt-realtime-mini-2025-12-15',
  'gpt-audio-1.5',
  'gpt-audio-mini',
  'gpt-audio-mini-2025-10-06',
  'gpt-audio-mini-2025-12-15',
] as const;
export const TRANSCRIPTION_MODELS = [
  'whisper-1',
  'gpt-transcribe',
  'gpt-live-transcribe',
  'gpt-4o-mini-transcribe',
  'gpt-4o-mini-transcribe-2025-12-15',
  'gpt-4o-transcribe',
  'gpt-4o-transcribe-diarize',
  'gpt-realtime-whisper',
] as const;
export const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin', 'cedar'] as const;
export const NOISE_REDUCTION_TYPES = ['near_field', 'far_field'] as const;
export const OUTPUT_MODALITIES = ['text', 'audio'] as const;

/** Shut down by the service: the peer refuses them as the service does. */
export const SHUT_DOWN_MODELS: readonly string[] = REALTIME_MODELS.filter((m) => m.includes('-realtime-preview'));

// Compile-time ties to the SDK (each must be `true`).
export const sdkTies: [
  Same<(typeof REALTIME_MODELS)[number], Known<RealtimeSessionCreateRequest['model']>>,
  Same<(typeof TRANSCRIPTION_MODELS)[number], Known<AudioTranscription['model']> | (typeof TRANSCRIPTION_MODELS_BEYOND_SDK)[number]>,
  Same<(typeof VOICES)[number], Known<RealtimeSession['voice']>>,
  Same<(typeof NOISE_REDUCTION_TYPES)[number], NoiseReductionType>,
  Same<(typeof OUTPUT_MODALITIES)[number], NonNullable<RealtimeSessionCreateRequest['output_modalities']>[number]>,
] = [true, true, true, true, true];
