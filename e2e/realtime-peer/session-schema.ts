/**
 * What the local peer accepts at POST /v1/realtime/client_secrets: the GA request shape, checked
 * strictly enough that a regression in the server's session binding fails the tests.
 */
import { z } from 'zod';

const closeSessionTool = z.object({
  type: z.literal('function'),
  name: z.literal('close_session'),
  description: z.string().min(1),
  parameters: z.object({
    type: z.literal('object'),
    properties: z.object({ reason: z.object({ type: z.literal('string') }).passthrough() }),
    required: z.array(z.string()).refine((r) => r.includes('reason'), 'reason must be required'),
  }).passthrough(),
});

const turnDetection = z.discriminatedUnion('type', [
  z.object({ type: z.literal('semantic_vad'), eagerness: z.enum(['low', 'medium', 'high', 'auto']).optional() }).passthrough(),
  z.object({ type: z.literal('server_vad'), silence_duration_ms: z.number().int().min(0).optional() }).passthrough(),
]);

export const realtimeSessionSchema = z
  .object({
    type: z.literal('realtime'),
    model: z.string().min(1),
    instructions: z.string().min(1),
    output_modalities: z.array(z.enum(['audio', 'text'])).optional(),
    audio: z.object({
      input: z.object({
        transcription: z.object({ model: z.string().min(1), language: z.string().optional() }).passthrough(),
        turn_detection: turnDetection,
        noise_reduction: z.object({ type: z.enum(['near_field', 'far_field']) }).nullable().optional(),
      }),
      output: z.object({ voice: z.string().min(1) }).passthrough(),
    }),
    tools: z.array(z.object({ name: z.string() }).passthrough()).refine(
      (tools) => tools.some((t) => closeSessionTool.safeParse(t).success),
      'tools must contain close_session with a required string reason',
    ),
    tool_choice: z.union([z.enum(['auto', 'none', 'required']), z.object({ type: z.literal('function'), name: z.string() })]),
  })
  .passthrough();

export const clientSecretRequestSchema = z
  .object({
    expires_after: z
      .object({ anchor: z.literal('created_at'), seconds: z.number().int().min(10).max(7200) })
      .optional(),
    session: realtimeSessionSchema,
  })
  .strict();

export type RealtimeSessionRequest = z.infer<typeof realtimeSessionSchema>;

/** The numbered questions at the end of the interviewer instructions ("1. ..."), in order. */
export function questionsFromInstructions(instructions: string): string[] {
  const lines = instructions.split('\n');
  const header = lines.findIndex((l) => /^Questions \(\d+\):\s*$/.test(l.trim()));
  if (header < 0) return [];
  return lines
    .slice(header + 1)
    .map((l) => /^\d+\.\s+(.*)$/.exec(l.trim())?.[1]?.trim())
    .filter((q): q is string => Boolean(q));
}
