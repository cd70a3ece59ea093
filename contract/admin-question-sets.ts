import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { MAX_QUESTION_SETS, MAX_UTTERANCE_LENGTH } from './limits';
import { questionBreakdownSchema } from './rating-breakdown';

/**
 * A question set as the admin editor writes it. The shapes are checked here; the catalogue's own
 * rules (one model-answer section per question, key points, ...) are checked by the server with
 * the same code that reads the catalogue files.
 */
export const questionSetInputSchema = z.object({
  name: z
    .string({ error: 'name must be text.' })
    .trim()
    .min(1, { error: 'name must not be empty.' })
    .max(100, { error: 'name must be at most 100 characters.' }),
  index: z
    .number({ error: 'index must be a whole number of at least 1.' })
    .int({ error: 'index must be a whole number of at least 1.' })
    .positive({ error: 'index must be a whole number of at least 1.' })
    .max(MAX_QUESTION_SETS, { error: `index must be at most ${MAX_QUESTION_SETS}.` }),
  isPremium: z.boolean({ error: 'isPremium must be true or false.' }),
  requiresFeedback: z.boolean({ error: 'requiresFeedback must be true or false.' }),
  instructions: z.string({ error: 'instructions must be text.' }).max(4000, { error: 'instructions must be at most 4000 characters.' }),
  questions: z
    .array(z.string({ error: 'each question must be text.' }).trim().max(1000, { error: 'a question must be at most 1000 characters.' }), {
      error: 'questions must be a list of texts.',
    })
    .max(100, { error: 'questions has too many entries.' }),
  modelAnswers: z
    .string({ error: 'modelAnswers must be text.' })
    .max(200_000, { error: 'modelAnswers must be at most 200000 characters.' }),
});
export type QuestionSetInput = z.infer<typeof questionSetInputSchema>;

export const adminQuestionSetSchema = questionSetInputSchema.extend({
  id: z.number().int().positive(),
  /** When an admin last changed it (null: as imported from the catalogue files). */
  editedAt: timestampSchema.nullable(),
  /** Archived sets are hidden from candidates; interviews on them keep their topic. */
  archivedAt: timestampSchema.nullable(),
  /** Rated interviews on this set. */
  ratings: z.number().int(),
});
export type AdminQuestionSet = z.infer<typeof adminQuestionSetSchema>;
/** Active sets in tile order (by index), then archived ones. */
export const adminQuestionSetListSchema = z.array(adminQuestionSetSchema);

export const questionSetParamsSchema = z.object({ id: idSchema });

export const questionSetDeleteSchema = z.object({
  /** `archived` when interviews refer to the set: it is hidden, not removed. */
  outcome: z.enum(['deleted', 'archived']),
});
export type QuestionSetDeleteResult = z.infer<typeof questionSetDeleteSchema>;

/** PUT /api/admin/question-sets/{id}/position: the place in the tile order the set moves to. */
export const questionSetPositionSchema = z.object({ index: questionSetInputSchema.shape.index });

/** POST /api/admin/question-sets/try-answer: how the rater would judge an answer to one question of a (draft) set. */
export const tryAnswerSchema = z.object({
  set: questionSetInputSchema,
  /** 1-based, as the editor numbers the questions. */
  questionNumber: z
    .number({ error: 'questionNumber must be a whole number of at least 1.' })
    .int()
    .min(1, { error: 'questionNumber must be a whole number of at least 1.' })
    .max(100),
  answer: z
    .string({ error: 'answer must be text.' })
    .trim()
    .min(1, { error: 'answer must not be empty.' })
    .max(MAX_UTTERANCE_LENGTH, { error: `answer must be at most ${MAX_UTTERANCE_LENGTH} characters.` }),
});
export type TryAnswerInput = z.infer<typeof tryAnswerSchema>;
/** The judgement of that question (verdict, score, key points earned with the evidence sentence, missed) and who judged. */
export const tryAnswerResultSchema = questionBreakdownSchema.extend({ rater: z.string() });
export type TryAnswerResult = z.infer<typeof tryAnswerResultSchema>;
