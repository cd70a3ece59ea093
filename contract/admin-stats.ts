import { z } from 'zod';
import { sessionFiguresSchema } from './session-telemetry';

export const STATS_RANGES = ['7', '30', '90'] as const;

export const dailyStatsQuerySchema = z.object({
  days: z
    .enum(STATS_RANGES, { error: 'days must be 7, 30 or 90.' })
    .default('30')
    .transform((days) => Number(days)),
});

export const dailyStatsSchema = z.object({
  days: z.number().int(),
  /** First and last day of the range (UTC calendar days, YYYY-MM-DD), today included. */
  from: z.string(),
  to: z.string(),
  /** One entry per day of the range, oldest first, days without interviews included. */
  perDay: z.array(z.object({ date: z.string(), started: z.number().int(), rated: z.number().int() })),
  /** Rated interviews by score: ten bands 0-9, 10-19, ..., 90-100. */
  scores: z.array(z.object({ from: z.number().int(), to: z.number().int(), count: z.number().int() })),
  /** Per active set in tile order: accounts with a rated interview on it in the range. */
  completionBySet: z.array(
    z.object({ questionSetId: z.number().int(), name: z.string(), index: z.number().int(), accounts: z.number().int() }),
  ),
  /** Sessions minted in the range: median and p90 of length and connect time, total estimated cost. */
  sessions: sessionFiguresSchema,
});
export type DailyStats = z.infer<typeof dailyStatsSchema>;
