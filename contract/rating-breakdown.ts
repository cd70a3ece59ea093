import { z } from 'zod';

/** The rater's verdict on one question (the same words as in the feedback Markdown). */
export const RATING_VERDICTS = [
  'Answered well',
  'Partly answered',
  'Thin answer',
  'Off topic',
  'Not a real answer',
  'Not answered',
] as const;

/** One question of a rating: what was earned, with the candidate's own words as evidence. */
export const questionBreakdownSchema = z.object({
  question: z.string(),
  verdict: z.enum(RATING_VERDICTS),
  /** 0-100. */
  score: z.number().int().min(0).max(100),
  /** Key points earned, in the set's order. */
  covered: z.array(z.string()),
  /** Key points not earned (contradicted ones included). */
  missed: z.array(z.string()),
  /** For each covered key point (same order), the candidate's statement that earned it. */
  evidence: z.array(z.string()),
});
export type QuestionBreakdown = z.infer<typeof questionBreakdownSchema>;

/** Per question of the set, in order. */
export const ratingBreakdownSchema = z.array(questionBreakdownSchema);
export type RatingBreakdown = z.infer<typeof ratingBreakdownSchema>;
