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
  /** Also ask the configured language-model rater (a paid call, counted in the editor's budget); refused without one. */
  languageModel: z.boolean({ error: 'languageModel must be true or false.' }).default(false),
});
export type TryAnswerInput = z.input<typeof tryAnswerSchema>;

/** What the built-in rater made of one key point of the tried answer. */
export const KEY_POINT_OUTCOMES = ['credited', 'contradicted', 'close', 'missed'] as const;
export const triedKeyPointSchema = z.object({
  point: z.string(),
  outcome: z.enum(KEY_POINT_OUTCOMES),
  /** The statement that earned it, contradicted it, or came closest by meaning; null when none did. */
  said: z.string().nullable(),
  /** How close `said` came by meaning, 0-1 (1: the point's own words); null without `said` or when contradicted. */
  closeness: z.number().min(0).max(1).nullable(),
});
export type TriedKeyPoint = z.infer<typeof triedKeyPointSchema>;

/** One rater's judgement of the question (verdict, score, key points earned with the evidence sentence, missed) and who judged. */
export const judgedAnswerSchema = questionBreakdownSchema.extend({ rater: z.string() });
export type JudgedAnswer = z.infer<typeof judgedAnswerSchema>;

/** The built-in rater's judgement, per key point, and the language model's when it was asked. */
export const tryAnswerResultSchema = judgedAnswerSchema.extend({
  keyPoints: z.array(triedKeyPointSchema),
  /** The answer as the rater cut it into statements (what an "Also accepted" or "Contradicted by" line can quote). */
  statements: z.array(z.string()),
  /** The language-model rater's judgement (`rater` says when it failed and the built-in one answered); null when not asked. */
  languageModel: judgedAnswerSchema.nullable(),
});
export type TryAnswerResult = z.infer<typeof tryAnswerResultSchema>;

/** GET /api/admin/question-sets/assistant: what the editor's language-model helpers can do here. */
export const setAssistantSchema = z.object({
  /** The configured model's name, or null when no language model is configured. */
  languageModel: z.string().nullable(),
  /** Why the helpers that need a model are unavailable (null when they are available). */
  unavailable: z.string().nullable(),
  /** The editor's language-model calls per hour across all admins (EDITOR_LLM_CALLS_PER_HOUR). */
  callsPerHour: z.number().int(),
});
export type SetAssistant = z.infer<typeof setAssistantSchema>;

/** POST /api/admin/question-sets/suggest-phrasings: drafts for one key point of a (draft) set, never saved. */
export const suggestPhrasingsSchema = z.object({
  set: questionSetInputSchema,
  questionNumber: tryAnswerSchema.shape.questionNumber,
  keyPoint: z.string({ error: 'keyPoint must be text.' }).trim().min(1, { error: 'keyPoint must not be empty.' }).max(1000),
});
export type SuggestPhrasingsInput = z.infer<typeof suggestPhrasingsSchema>;
export const phrasingSuggestionsSchema = z.object({
  keyPoint: z.string(),
  /** Other plain-word ways to state the point, for "Also accepted" (none the set already has). */
  accepted: z.array(z.string()),
  /** Common misconceptions that get the point wrong, for "Contradicted by". */
  contradicted: z.array(z.string()),
  /** `llm:{model}`. */
  drafter: z.string(),
});
export type PhrasingSuggestions = z.infer<typeof phrasingSuggestionsSchema>;
