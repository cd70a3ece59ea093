/**
 * The realtime session the server binds to every OpenAI voice call (the multipart `session` part of
 * POST /realtime/calls, and what the sideband restores when someone else changes it). Typed with
 * the official `openai` package, so a field the service does not know is a compile error.
 */
import type { RealtimeResponseCreateParams, RealtimeSessionCreateRequest } from 'openai/resources/realtime/realtime';
import type { QuestionSetRecord } from '../../db/schema';
import { DEFAULT_TRANSCRIPTION_MODEL, type NoiseReductionSetting } from '../../openai-models';
import {
  buildInterviewerInstructions,
  CLOSE_SESSION_DESCRIPTION,
  CLOSE_SESSION_TOOL_NAME,
  closeSessionToolParameters,
  closingRemarkInstructions,
} from '../interviewer/interviewer-instructions';
import { CLOSING_METADATA } from '../../../domain/interviewer-protocol';

export const DEFAULT_VOICE = 'marin' satisfies NonNullable<NonNullable<RealtimeSessionCreateRequest['audio']>['output']>['voice'];

export interface RealtimeSessionSettings {
  model: string;
  transcriptionModel?: string;
  noiseReduction?: NoiseReductionSetting;
  voice?: string;
  /** Appended to the interviewer's instructions (a resumed call's transcript so far). */
  continuation?: string;
}

export function buildRealtimeSession(set: QuestionSetRecord, settings: RealtimeSessionSettings): RealtimeSessionCreateRequest {
  const noiseReduction = settings.noiseReduction ?? 'far_field';
  const base = buildInterviewerInstructions(set);
  return {
    type: 'realtime',
    model: settings.model,
    instructions: settings.continuation ? `${base}\n\n${settings.continuation}` : base,
    // One modality: audio comes with its transcript; asking for both is refused by the service.
    output_modalities: ['audio'],
    audio: {
      input: {
        transcription: { model: settings.transcriptionModel ?? DEFAULT_TRANSCRIPTION_MODEL, language: 'en' },
        // Low eagerness waits up to ~8 s: a candidate thinking aloud is not cut off mid-answer.
        turn_detection: { type: 'semantic_vad', eagerness: 'low', create_response: true, interrupt_response: true },
        // Omitted means none (the service's default).
        ...(noiseReduction === 'off' ? {} : { noise_reduction: { type: noiseReduction } }),
      },
      output: { voice: settings.voice ?? DEFAULT_VOICE },
    },
    tools: [
      { type: 'function', name: CLOSE_SESSION_TOOL_NAME, description: CLOSE_SESSION_DESCRIPTION, parameters: closeSessionToolParameters },
    ],
    tool_choice: 'auto',
  };
}

/** The one goodbye: no tools, so the closing remark cannot call close_session again. */
export function closingResponse(reason: string): RealtimeResponseCreateParams {
  return { instructions: closingRemarkInstructions(reason), tool_choice: 'none', metadata: CLOSING_METADATA };
}
