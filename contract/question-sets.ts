import { z } from 'zod';

export const questionSetSchema = z.object({
  id: z.number().int().positive(),
  /** The topic. Several sets may share a name (levels of one topic). */
  name: z.string(),
  /** 1-based, unique, the order of the topic list and of progress. */
  index: z.number().int().positive(),
  isPremium: z.boolean(),
  requiresFeedback: z.boolean(),
  /** Markdown. null when withheld: premium sets for callers who are not an active pro. */
  modelAnswers: z.string().nullable(),
  questions: z.array(z.string()),
});
export type QuestionSet = z.infer<typeof questionSetSchema>;

export const questionSetListSchema = z.array(questionSetSchema);
export type QuestionSetList = z.infer<typeof questionSetListSchema>;
