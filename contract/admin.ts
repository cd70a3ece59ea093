import { z } from 'zod';
import { emailSchema, timestampSchema } from './common';
import { EVENT_PREVIEW_ENTRIES, MAX_DB_INTEGER } from './limits';
import { transcriptEntrySchema } from './interview';
import { ratingBreakdownSchema } from './rating-breakdown';
import { sessionTelemetrySchema } from './session-telemetry';

export const eventsQuerySchema = z.object({
  limit: z.coerce.number({ error: 'limit must be a whole number from 1 to 500.' }).int().min(1).max(500).default(100),
  /** Cursor: only events with an id lower than this (the last id of the previous page). */
  before: z.coerce
    .number({ error: 'before must be an event id.' })
    .int()
    .positive()
    .max(MAX_DB_INTEGER, { error: 'before must be an event id.' })
    .optional(),
});

export type EventsQuery = z.infer<typeof eventsQuerySchema>;

export const adminEventSchema = z.object({
  id: z.number().int().positive(),
  userEmail: z.string().nullable(),
  eventType: z.string(),
  topic: z.string().nullable(),
  questionSetIndex: z.number().int().nullable(),
  eventTimestamp: timestampSchema,
  durationSeconds: z.number().int().nullable(),
  transcript: z.array(transcriptEntrySchema).nullable(),
  ratingMarkdown: z.string().nullable(),
  /** Per question: verdict, score, key points covered and missed, the candidate's evidence. */
  ratingBreakdown: ratingBreakdownSchema.nullable(),
  score: z.number().nullable(),
  /** Which rater produced the rating, e.g. `rubric` or `llm:gpt-5-mini`. */
  rater: z.string().nullable(),
  /** How the event's interview session went (docs/product-rules.md, Session telemetry); null without a session. */
  session: sessionTelemetrySchema.nullable(),
});
export type AdminEvent = z.infer<typeof adminEventSchema>;

/**
 * A row of the events list: the event with previews instead of its texts (a transcript may hold
 * 200,000 characters), and no breakdown; GET /api/events/{id} answers the whole event.
 */
export const adminEventRowSchema = adminEventSchema.omit({ ratingBreakdown: true }).extend({
  /** The first EVENT_PREVIEW_ENTRIES entries, each text cut to EVENT_PREVIEW_CHARS characters. */
  transcript: z.array(transcriptEntrySchema).max(EVENT_PREVIEW_ENTRIES).nullable(),
  /** The first EVENT_PREVIEW_CHARS characters (Unicode code points, as PostgreSQL's left() counts). */
  ratingMarkdown: z.string().nullable(),
  /** The transcript or the Markdown holds more than the preview shows. */
  truncated: z.boolean(),
});
export type AdminEventRow = z.infer<typeof adminEventRowSchema>;
/** Newest first. */
export const eventsResponseSchema = z.array(adminEventRowSchema);

export const interviewStatsSchema = z.object({
  emailCount: z.number().int(),
  /** "n" -> number of accounts with at least n rated interviews. */
  interviewCounts: z.record(z.string(), z.number().int()),
});
export type InterviewStats = z.infer<typeof interviewStatsSchema>;

export const emailAccountSchema = z.object({
  email: z.string(),
  /** Present means Pro. */
  subscriptionId: z.string().nullable(),
  plan: z.enum(['free', 'pro']),
  /** The account's own session limit; null = its plan's default. */
  sessionLimit: z.number().int().nullable(),
  /** The limit in force: the own limit, or the plan's default. */
  limit: z.number().int(),
  sessionsUsed: z.number().int(),
  /** Sessions left: limit - sessionsUsed, never below 0. */
  remaining: z.number().int(),
  createdAt: timestampSchema,
  lastLoginAt: timestampSchema.nullable(),
  /** The local part or a domain label mixes writing systems: may imitate another address (domain/email-scripts.ts). */
  mixedScript: z.boolean(),
});
export type EmailAccount = z.infer<typeof emailAccountSchema>;
export const emailListSchema = z.array(emailAccountSchema);

/** {email, limit: null} creates; {email, isPro, limit: null} sets the plan (docs/product-rules.md, Admin area). */
export const emailUpsertSchema = z.object({
  email: emailSchema,
  isPro: z.boolean().optional(),
  limit: z.number().int().nonnegative().max(1_000_000).nullable().optional(),
});
export const emailParamsSchema = z.object({ email: emailSchema });

export const MAX_SESSION_LIMIT = 1_000_000;
/** PATCH /api/emails/{email}: an own session limit, or null for the plan's default. */
export const emailPatchSchema = z.object({
  sessionLimit: z
    .number({ error: 'sessionLimit must be a whole number or null.' })
    .int({ error: 'sessionLimit must be a whole number or null.' })
    .min(0, { error: 'sessionLimit must not be negative.' })
    .max(MAX_SESSION_LIMIT, { error: `sessionLimit must be at most ${MAX_SESSION_LIMIT}.` })
    .nullable(),
});

export const adminFeedbackSchema = z.object({
  id: z.number().int().positive(),
  user: z.object({ email: z.string() }).nullable(),
  topic: z.string(),
  questionIndex: z.number().int(),
  feedback: z.string(),
  createdAt: timestampSchema,
});
export type AdminFeedback = z.infer<typeof adminFeedbackSchema>;
export const feedbackListSchema = z.array(adminFeedbackSchema);

/** GET /api/feedback: newest first, a page at a time (the events list's pattern). */
export const feedbackQuerySchema = z.object({
  limit: z.coerce.number({ error: 'limit must be a whole number from 1 to 500.' }).int().min(1).max(500).default(100),
  /** Cursor: only feedback with an id lower than this (the last id of the previous page). */
  before: z.coerce
    .number({ error: 'before must be a feedback id.' })
    .int()
    .positive()
    .max(MAX_DB_INTEGER, { error: 'before must be a feedback id.' })
    .optional(),
});
export type FeedbackQuery = z.infer<typeof feedbackQuerySchema>;

/** GET /api/emails: by email, a page at a time. */
export const emailsQuerySchema = z.object({
  limit: z.coerce.number({ error: 'limit must be a whole number from 1 to 500.' }).int().min(1).max(500).default(100),
  /** Cursor: only emails after this one (the last email of the previous page). */
  after: z.string().max(320, { error: 'after must be an email.' }).optional(),
});
export type EmailsQuery = z.infer<typeof emailsQuerySchema>;

/** How many rows the paged lists hold in all (their pages show the count). */
export const adminCountsSchema = z.object({ feedback: z.number().int(), emails: z.number().int() });
export type AdminCounts = z.infer<typeof adminCountsSchema>;

export const okSchema = z.object({ ok: z.literal(true) });
