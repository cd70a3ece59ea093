import { z } from 'zod';
import { emailSchema, idSchema, timestampSchema } from './common';
import { FEEDBACK_MAX_LENGTH, FEEDBACK_MIN_LENGTH, HISTORY_PAGE_SIZE, MAX_DB_INTEGER, MAX_RATINGS_PAGE_SIZE } from './limits';
import { ratingBreakdownSchema } from './rating-breakdown';

export const loginRequestSchema = z.object({ email: emailSchema });

export const subscriptionSchema = z.object({
  type: z.enum(['pro', 'free']),
  status: z.enum(['active', 'inactive']),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** One completed (rated) interview, as listed in the login response. */
export const progressItemSchema = z.object({
  questionSetId: z.number().int().positive(),
  topic: z.string(),
  index: z.number().int().positive(),
  score: z.number().nullable(),
  completedAt: timestampSchema,
});

/** docs/product-rules.md, Credits: the interviews the account can still start. */
export const creditsSchema = z.object({
  left: z.number().int().nonnegative(),
  /** The account's limit: its own (set by the operator) or its plan's. */
  limit: z.number().int().nonnegative(),
  /** The Pro plan's limit when it would give this account more interviews; null otherwise. */
  proLimit: z.number().int().nonnegative().nullable(),
});
export type Credits = z.infer<typeof creditsSchema>;

export const loginResponseSchema = z.object({
  subscription: subscriptionSchema,
  progress: z.array(progressItemSchema),
  /** topic name -> highest completed set index (1-based). */
  topicLevels: z.record(z.string(), z.number().int()),
  /** topic name -> whether the user gave feedback on that topic. */
  topicFeedback: z.record(z.string(), z.boolean()),
  isNewUser: z.boolean(),
  credits: creditsSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const feedbackRequestSchema = z.object({
  feedback: z
    .string({ error: 'Feedback must be text.' })
    .max(FEEDBACK_MAX_LENGTH, { error: `Feedback must be at most ${FEEDBACK_MAX_LENGTH} characters` })
    .refine((text) => text.trim().length >= FEEDBACK_MIN_LENGTH, {
      error: `Feedback must be at least ${FEEDBACK_MIN_LENGTH} characters`,
    }),
  topic: z.string({ error: 'Missing feedback submission information' }).trim().min(1).max(200),
  /** The index of the set the feedback is about (shown as Q{questionIndex}). */
  questionIndex: z
    .number({ error: 'Missing feedback submission information' })
    .int()
    .nonnegative()
    .max(MAX_DB_INTEGER, { error: 'The question index is too large.' }),
});
export const feedbackResponseSchema = z.object({ id: z.number().int().positive() });

export const ratingsQuerySchema = z.object({
  page: z.coerce.number({ error: 'page must be a whole number of at least 1.' }).int().min(1).max(1_000_000).default(1),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${MAX_RATINGS_PAGE_SIZE}.` })
    .int()
    .min(1)
    .max(MAX_RATINGS_PAGE_SIZE)
    .default(HISTORY_PAGE_SIZE),
});

export const ratingItemSchema = z.object({
  id: z.number().int().positive(),
  topic: z.string().nullable(),
  /** 0-based: set.index - 1 (history cards show index + 1: docs/product-rules.md, Results and history). */
  questionSetIndex: z.number().int().nullable(),
  score: z.number().nullable(),
  eventTimestamp: timestampSchema,
  durationSeconds: z.number().int().nullable(),
  ratingMarkdown: z.string().nullable(),
  /** Per question of the set, in order; null for ratings stored before it existed. */
  breakdown: ratingBreakdownSchema.nullable(),
});
export type RatingItem = z.infer<typeof ratingItemSchema>;

export const paginationSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  totalCount: z.number().int(),
  totalPages: z.number().int(),
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean(),
});
export type Pagination = z.infer<typeof paginationSchema>;

export const ratingsResponseSchema = z.object({
  ratings: z.array(ratingItemSchema),
  pagination: paginationSchema,
});
export type RatingsResponse = z.infer<typeof ratingsResponseSchema>;

export { idSchema };
