/**
 * Session telemetry (docs/product-rules.md, Session telemetry): how each interview session went,
 * as the admin event details and the dashboard show it, and the browser's small reports that feed
 * it (POST /interview/sessions/{id}/report).
 */
import { z } from 'zod';
import { timestampSchema } from './common';
import { MAX_REPORT_DETAIL } from './limits';

/** Why a session ended. The server records the first end it learns of; a resume clears it. */
export const SESSION_END_REASONS = [
  'closed-by-interviewer',
  'stopped-by-candidate',
  'connection-lost',
  'time-limit',
  'service-error',
  'failed-start',
  'expired',
  /** Left open with no activity for SESSION_IDLE_MINUTES: the server ended it and rated what it had stored. */
  'left',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** The reasons a browser may report; the others only the server knows. */
export const BROWSER_END_REASONS = ['closed-by-interviewer', 'stopped-by-candidate', 'connection-lost', 'failed-start'] as const;

/** Why the browser ended a session it then sends for rating (`endReason` of POST /interview/rate-transcript). */
export const RATING_END_REASONS = ['closed-by-interviewer', 'stopped-by-candidate', 'connection-lost'] as const;

/** Browser speech without speech recognition is typed; elsewhere the candidate speaks. */
export const SESSION_INPUTS = ['voice', 'typed'] as const;
export type SessionInput = (typeof SESSION_INPUTS)[number];

export const sessionReportSchema = z.discriminatedUnion(
  'event',
  [
    /** The transport is up (turn-taking transports; an OpenAI call is known to the server already). */
    z.object({ event: z.literal('connected'), input: z.enum(SESSION_INPUTS).optional() }),
    /** The session ended in the browser; `detail` says why a start failed. */
    z.object({
      event: z.literal('ended'),
      reason: z.enum(BROWSER_END_REASONS, { error: `reason must be one of ${BROWSER_END_REASONS.join(', ')}.` }),
      detail: z
        .string()
        .max(MAX_REPORT_DETAIL, { error: `detail must be at most ${MAX_REPORT_DETAIL} characters.` })
        .optional(),
    }),
  ],
  { error: 'event must be connected or ended.' },
);
export type SessionReport = z.infer<typeof sessionReportSchema>;

export const sessionReportResponseSchema = z.object({
  sessionId: z.string(),
  /** false: the server already knew (or no longer takes reports for this session). */
  recorded: z.boolean(),
});
export type SessionReportResponse = z.infer<typeof sessionReportResponseSchema>;

const count = z.number().nonnegative().optional();

/**
 * Usage summed over the session (every key optional: a transport reports what it has).
 * OpenAI Realtime: per `response.done`; input token counts include their cached part.
 * Transcription: the realtime session's input transcription, or the speech pipeline's STT.
 * Speech: the speech pipeline's TTS.
 */
export const sessionUsageSchema = z.object({
  realtimeModel: z.string().optional(),
  responses: count,
  textInTokens: count,
  cachedTextInTokens: count,
  audioInTokens: count,
  cachedAudioInTokens: count,
  textOutTokens: count,
  audioOutTokens: count,
  transcriptionModel: z.string().optional(),
  transcribedSeconds: count,
  transcriptionAudioTokens: count,
  transcriptionTextTokens: count,
  speechModel: z.string().optional(),
  synthesisedCharacters: count,
  /** The language model of the interviewer (browser speech, speech pipeline) and the AI rater. */
  llmModel: z.string().optional(),
  llmCalls: count,
  /** Of `llmCalls`, those the AI rater made (each also counted against the session's rater budget). */
  raterCalls: count,
  llmInTokens: count,
  llmCachedInTokens: count,
  llmOutTokens: count,
});
export type SessionUsage = z.infer<typeof sessionUsageSchema>;

export const sessionErrorSchema = z.object({
  at: timestampSchema,
  /** realtime, transcription, speech-to-text, text-to-speech, interviewer */
  source: z.string(),
  code: z.string().nullable(),
  message: z.string(),
});
export type SessionError = z.infer<typeof sessionErrorSchema>;

export const sessionTelemetrySchema = z.object({
  sessionId: z.string(),
  /** openai-realtime, browser-speech or speech-pipeline. */
  transport: z.string(),
  input: z.enum(SESSION_INPUTS).nullable(),
  /** minted, live, rated, abandoned or expired. */
  status: z.string(),
  /** When the session was minted (the credit spent). */
  startedAt: timestampSchema,
  connectedAt: timestampSchema.nullable(),
  endedAt: timestampSchema.nullable(),
  /** From minting to connected. */
  connectMs: z.number().int().nullable(),
  /** From connected to ended, in whole seconds. */
  lengthSeconds: z.number().int().nullable(),
  endReason: z.enum(SESSION_END_REASONS).nullable(),
  endDetail: z.string().nullable(),
  /** The candidate's answers the server heard (its transcript of the session). */
  candidateTurns: z.number().int(),
  resumes: z.number().int(),
  usage: sessionUsageSchema,
  /** USD, from the price table (MODEL_PRICES); an estimate, null when nothing used was priced. */
  estimatedCostUsd: z.number().nullable(),
  errorCount: z.number().int(),
  /** The first errors kept (at most 20). */
  errors: z.array(sessionErrorSchema),
});
export type SessionTelemetry = z.infer<typeof sessionTelemetrySchema>;

const figure = z.object({
  /** Sessions measured. */
  count: z.number().int(),
  median: z.number().nullable(),
  p90: z.number().nullable(),
});

/** The dashboard's session figures for a range of days. */
export const sessionFiguresSchema = z.object({
  /** Sessions minted in the range. */
  sessions: z.number().int(),
  /** Connected to ended, in seconds. */
  lengthSeconds: figure,
  /** Minted to connected, in milliseconds. */
  connectMs: figure,
  /** USD, summed over the range's sessions. */
  estimatedCostUsd: z.number(),
});
export type SessionFigures = z.infer<typeof sessionFiguresSchema>;
