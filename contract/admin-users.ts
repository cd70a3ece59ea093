import { z } from 'zod';
import { adminEventSchema, adminFeedbackSchema, emailAccountSchema } from './admin';
import { timestampSchema } from './common';
import { transcriptEntrySchema } from './interview';

export const userSessionSchema = z.object({
  id: z.string(),
  questionSetId: z.number().int(),
  transport: z.string(),
  status: z.string(),
  createdAt: timestampSchema,
  finishedAt: timestampSchema.nullable(),
  turns: z.array(transcriptEntrySchema),
});

/** GET /api/admin/users/{email}: everything stored about one person. */
export const userDataSchema = z.object({
  email: z.string(),
  /** null when the account was deleted earlier but rows still name the email. */
  account: emailAccountSchema.nullable(),
  /** Oldest first, with transcripts and ratings. */
  events: z.array(adminEventSchema),
  feedback: z.array(adminFeedbackSchema),
  sessions: z.array(userSessionSchema),
});
export type UserData = z.infer<typeof userDataSchema>;

/** DELETE /api/admin/users/{email}: how many rows of each kind were erased. */
export const userErasureSchema = z.object({
  email: z.string(),
  removed: z.object({
    accounts: z.number().int(),
    events: z.number().int(),
    feedback: z.number().int(),
    sessions: z.number().int(),
  }),
});
export type UserErasure = z.infer<typeof userErasureSchema>;
