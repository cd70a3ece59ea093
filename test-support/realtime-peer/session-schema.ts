/**
 * What the local peer accepts as the `session` part of POST /v1/realtime/calls (and in a
 * `session.update`): the GA shape, strict (an unknown field is refused, as a regression in the
 * server's session binding must fail the tests), value lists tied to the SDK's types (sdk-enums.ts),
 * one output modality only.
 */
import { z } from 'zod';
import { NOISE_REDUCTION_TYPES, OUTPUT_MODALITIES, REALTIME_MODELS, SHUT_DOWN_MODELS, TRANSCRIPTION_MODELS, VOICES } from './sdk-enums';

const closeSessionTool = z.strictObject({
  type: z.literal('function'),
  name: z.literal('close_session'),
  description: z.string().min(1),
  parameters: z.strictObject({
    type: z.literal('object'),
    properties: z.strictObject({ reason: z.strictObject({ type: z.literal('string'), description: z.string().optional() }) }),
    required: z.array(z.string()).refine((r) => r.includes('reason'), 'reason must be required'),
    additionalProperties: z.literal(false),
  }),
});

const turnDetection = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('semantic_vad'),
    eagerness: z.enum(['low', 'medium', 'high', 'auto']).optional(),
    create_response: z.boolean().optional(),
    interrupt_response: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.literal('server_vad'),
    threshold: z.number().min(0).max(1).optional(),
    prefix_padding_ms: z.number().int().min(0).optional(),
    silence_duration_ms: z.number().int().min(0).optional(),
    idle_timeout_ms: z.number().int().min(5000).max(30000).nullable().optional(),
    create_response: z.boolean().optional(),
    interrupt_response: z.boolean().optional(),
  }),
]);

export const realtimeSessionSchema = z.strictObject({
  type: z.literal('realtime'),
  model: z.enum(REALTIME_MODELS).refine((m) => !SHUT_DOWN_MODELS.includes(m), 'this model has been shut down'),
  instructions: z.string().min(1),
  output_modalities: z.array(z.enum(OUTPUT_MODALITIES)).length(1, 'output_modalities takes exactly one of audio or text').optional(),
  audio: z.strictObject({
    input: z.strictObject({
      transcription: z.strictObject({ model: z.enum(TRANSCRIPTION_MODELS), language: z.string().length(2).optional() }),
      turn_detection: turnDetection.nullable(),
      noise_reduction: z
        .strictObject({ type: z.enum(NOISE_REDUCTION_TYPES) })
        .nullable()
        .optional(),
    }),
    output: z.strictObject({ voice: z.enum(VOICES), speed: z.number().min(0.25).max(1.5).optional() }),
  }),
  tools: z.array(closeSessionTool).length(1),
  tool_choice: z.union([z.enum(['auto', 'none', 'required']), z.strictObject({ type: z.literal('function'), name: z.string() })]),
});

export type RealtimeSessionRequest = z.infer<typeof realtimeSessionSchema>;

/** A `session.update`: any part of the session, but never the model (fixed once the call exists). */
export const sessionUpdateSchema = realtimeSessionSchema
  .omit({ model: true })
  .partial()
  .extend({ type: z.literal('realtime') });

/** The numbered questions at the end of the interviewer instructions ("1. ..."), in order. */
export function questionsFromInstructions(instructions: string): string[] {
  const lines = instructions.split('\n');
  const header = lines.findIndex((l) => /^Questions \(\d+\):\s*$/.test(l.trim()));
  if (header < 0) return [];
  const questions: string[] = [];
  for (const line of lines.slice(header + 1)) {
    const q = /^\d+\.\s+(.*)$/.exec(line.trim())?.[1]?.trim();
    if (!q) break;
    questions.push(q);
  }
  return questions;
}

/** A continuation call names the question to pick up with (the next one, or the unanswered one again); the peer starts there. */
export function continueFrom(instructions: string): string | null {
  return /^(?:Continue with this question|.*Ask this question again): (.*)$/m.exec(instructions)?.[1]?.trim() ?? null;
}
