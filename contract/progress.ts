/**
 * The candidate's progress (docs/product-rules.md, Results and history): one call for the History
 * page's charts, most-missed key points and "practise next", all from the stored rating breakdowns;
 * and one rated interview's whole transcript.
 */
import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { transcriptEntrySchema } from './interview';

/** One rated interview on a topic's chart. */
export const progressPointSchema = z.object({
  ratingId: z.number().int().positive(),
  /** 1-based, as the tiles and history cards number sets. */
  setIndex: z.number().int(),
  score: z.number().min(0).max(100),
  at: timestampSchema,
});

/** A topic's rated interviews, oldest first. */
export const topicProgressSchema = z.object({
  topic: z.string(),
  points: z.array(progressPointSchema),
});

/** A key point the candidate missed, with the question it belongs to. */
export const missedKeyPointSchema = z.object({
  topic: z.string(),
  setIndex: z.number().int(),
  question: z.string(),
  keyPoint: z.string(),
  /** Rated interviews in which it was missed, of those that asked the question. */
  missed: z.number().int().positive(),
  asked: z.number().int().positive(),
});

/** Where the candidate stands lowest: the question whose latest score is the lowest, on a set that can still be chosen. */
export const practiseNextSchema = z.object({
  questionSetId: z.number().int().positive(),
  topic: z.string(),
  setIndex: z.number().int(),
  question: z.string(),
  /** The latest score on that question, 0-100. */
  score: z.number().int().min(0).max(100),
  /** Its key points missed that time. */
  missed: z.array(z.string()),
});

export const progressResponseSchema = z.object({
  /** Topics in order of their first rated interview. */
  topics: z.array(topicProgressSchema),
  /** Most often missed first, at most MAX_MISSED_KEY_POINTS. */
  missedKeyPoints: z.array(missedKeyPointSchema),
  practiseNext: practiseNextSchema.nullable(),
});
export type ProgressResponse = z.infer<typeof progressResponseSchema>;
export type TopicProgress = z.infer<typeof topicProgressSchema>;
export type MissedKeyPoint = z.infer<typeof missedKeyPointSchema>;
export type PractiseNext = z.infer<typeof practiseNextSchema>;

/** GET /user/ratings/{id}/transcript: both sides of one of the candidate's rated interviews. */
export const ratingParamsSchema = z.object({ id: idSchema });
export const ratingTranscriptSchema = z.object({
  id: z.number().int().positive(),
  transcript: z.array(transcriptEntrySchema),
});
export type RatingTranscript = z.infer<typeof ratingTranscriptSchema>;
