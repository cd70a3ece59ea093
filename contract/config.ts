import { z } from 'zod';

/** GET /api/config: the public settings the web app needs. */
export const publicConfigSchema = z.object({
  productName: z.string(),
  supportChatUrl: z.string(),
  supportContacts: z.array(z.object({ name: z.string(), url: z.string() })),
  voiceMode: z.enum(['openai-realtime', 'browser-speech', 'speech-pipeline']),
  /**
   * Spoken answers: the pause (ms) that ends the candidate's turn, by how the answer so far sounds
   * (domain/answer-ending.ts; the TURN_PAUSE_* settings).
   */
  turnPauses: z.object({
    pieceMs: z.number().int(),
    finishedMs: z.number().int(),
    unsureMs: z.number().int(),
    unfinishedMs: z.number().int(),
    heldMs: z.number().int(),
  }),
  /** Random dog picture API (JSON {message: url}); null when switched off. */
  dogImageApi: z.string().nullable(),
  /** `email`: the email is the identity (the specification's design); `link`: sign-in links by mail (SIGNIN). */
  signin: z.enum(['email', 'link']),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** `draining`: the server was told to stop (SIGTERM) and serves what is in flight; a load balancer should move away (503). */
export const healthSchema = z.object({ status: z.enum(['ok', 'draining']) });
