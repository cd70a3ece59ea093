import { z } from 'zod';
import { idSchema, timestampSchema, userHeadersSchema } from './common';
import {
  MAX_DB_INTEGER,
  MAX_DURATION_SECONDS,
  MAX_TRANSCRIPT_ENTRIES,
  MAX_TRANSCRIPT_TEXT,
  MAX_TRANSCRIPT_TOTAL_TEXT,
  MAX_UTTERANCE_LENGTH,
} from './limits';
import { ratingBreakdownSchema } from './rating-breakdown';
import { RATING_END_REASONS, SESSION_INPUTS } from './session-telemetry';

export const tokenQuerySchema = z.object({ questionSetId: idSchema });

const clientSecretSchema = z.object({
  /** OpenAI: the ephemeral `ek_...` key. Browser speech: the session token for POST /interview/turn. */
  value: z.string(),
  /** Unix seconds. */
  expires_at: z.number().int(),
});

export const openAiTokenSchema = z.object({
  transport: z.literal('openai-realtime'),
  client_secret: clientSecretSchema,
  sessionId: z.string(),
  /** Where the browser POSTs its SDP offer, e.g. https://api.openai.com/v1/realtime/calls */
  sdpUrl: z.string(),
  model: z.string(),
});

export const browserSpeechTokenSchema = z.object({
  transport: z.literal('browser-speech'),
  client_secret: clientSecretSchema,
  sessionId: z.string(),
});

/** Speech pipeline: our server transcribes, asks the interviewer and synthesises each turn. */
export const speechPipelineTokenSchema = z.object({
  transport: z.literal('speech-pipeline'),
  client_secret: clientSecretSchema,
  sessionId: z.string(),
});

export const tokenResponseSchema = z.discriminatedUnion('transport', [
  openAiTokenSchema,
  browserSpeechTokenSchema,
  speechPipelineTokenSchema,
]);
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
export type OpenAiToken = z.infer<typeof openAiTokenSchema>;
export type BrowserSpeechToken = z.infer<typeof browserSpeechTokenSchema>;
export type SpeechPipelineToken = z.infer<typeof speechPipelineTokenSchema>;

export const transcriptEntrySchema = z.object({
  role: z.enum(['interviewer', 'interviewee']),
  transcript: z.string().max(MAX_TRANSCRIPT_TEXT),
  /** Milliseconds since the session started; used for delivery figures. */
  at: z.number().int().nonnegative().optional(),
  /** An answer the candidate typed instead of saying (absent: spoken). Decides the delivery figures. */
  input: z.enum(SESSION_INPUTS).optional(),
  /** An interviewer line the candidate talked over: about how many of its characters were said (domain/cut-off.ts). */
  cutAt: z.number().int().nonnegative().max(MAX_TRANSCRIPT_TEXT).optional(),
  /**
   * An interviewer line of the server's scripted interviewer: the set's question (0-based) it asks,
   * repeats or follows up on, so the rating pairs the answers by it instead of guessing. Only the
   * server writes it: the transcript a browser sends for rating drops it (rateRequestSchema), and
   * the server copies it from its own stored turns. Absent where no one knows (a language model's lines).
   */
  askedQuestion: z.number().int().nonnegative().optional(),
});
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;
/** A transcript entry as a browser sends it: which question a line asked is the server's to say, so it is dropped. */
const sentTranscriptEntrySchema = transcriptEntrySchema.omit({ askedQuestion: true });

export const rateRequestSchema = z.object({
  transcripts: z
    .array(sentTranscriptEntrySchema)
    .max(MAX_TRANSCRIPT_ENTRIES)
    .refine((entries) => entries.reduce((sum, entry) => sum + entry.transcript.length, 0) <= MAX_TRANSCRIPT_TOTAL_TEXT, {
      error: 'The transcript is too long: at most 200,000 characters in total.',
    }),
  durationSeconds: z.number().int().nonnegative().max(MAX_DURATION_SECONDS),
  questionSetId: z.number().int().positive().max(MAX_DB_INTEGER, { error: 'The id is too large.' }),
  /**
   * The token's sessionId. Without it the rating binds to the caller's newest unrated session for
   * the set; a repeat with the same sessionId answers the stored rating.
   */
  sessionId: z.string().max(100).optional(),
  /** Session telemetry: why the browser ended the session (docs/product-rules.md, Session telemetry). */
  endReason: z.enum(RATING_END_REASONS, { error: `endReason must be one of ${RATING_END_REASONS.join(', ')}.` }).optional(),
});
export type RateRequest = z.infer<typeof rateRequestSchema>;

export const rateResponseSchema = z.object({
  id: z.number().int().positive(),
  markdown: z.string(),
  score: z.number().min(0).max(100),
  /** Per question of the set, in order; the Markdown is written from it. Empty for ratings stored before it existed. */
  breakdown: ratingBreakdownSchema,
  /**
   * Whether this interview completed its level (docs/product-rules.md, Topic tiles): every question
   * answered and the score at least LEVEL_PASS_SCORE. The server decides; the feedback screen says what is missing.
   */
  level: z.object({
    completed: z.boolean(),
    /** The set's questions left without an answer, in order. */
    unanswered: z.array(z.string()),
    /** LEVEL_PASS_SCORE when the score is below it, else null. */
    scoreBelow: z.number().int().nullable(),
  }),
});
export type RateResponse = z.infer<typeof rateResponseSchema>;

/** Browser-speech mode: one interviewer turn. */
export const turnRequestSchema = z.object({
  /** client_secret.value of the browser-speech token. */
  sessionToken: z.string().min(1).max(200),
  /** The candidate's last answer; absent for the opening turn. */
  utterance: z.string().max(MAX_UTTERANCE_LENGTH, { error: 'An answer can be at most 4,000 characters long.' }).optional(),
  /**
   * The first turn after POST /interview/sessions/{id}/resume: the interviewer picks up where the
   * interview stood (with `utterance`: the answer that got no reply before the connection dropped).
   */
  resume: z.boolean().optional(),
  /**
   * Speech pipeline: `utterance` is the candidate's spoken answer as POST /interview/speech-transcript
   * wrote it down, piece by piece (the reply's `heard` repeats it). Without an utterance, nothing
   * of the spoken answer could be written down: the interviewer apologises (`retry`).
   */
  spoken: z.boolean().optional(),
  /**
   * `typed`: the candidate typed `utterance` (absent: said it). Stored with the answer, so the
   * transcript shown after a reload keeps a typed answer typed and the rating's delivery figures count it as typed.
   */
  input: z.enum(SESSION_INPUTS).optional(),
});
export const turnResponseSchema = z.object({
  /** What the interviewer says next (or the closing remark). */
  say: z.string(),
  /** Set when the interviewer ends the interview (the close_session tool, with its reason). */
  closeSession: z.object({ reason: z.string() }).nullable(),
});
export type TurnRequest = z.infer<typeof turnRequestSchema>;
export type TurnResponse = z.infer<typeof turnResponseSchema>;

/** POST /interview/turn's headers: `accept: application/x-ndjson` asks for the streamed answer. */
export const turnHeadersSchema = userHeadersSchema.extend({ accept: z.string().max(1000).optional() });

/**
 * One line of a streamed browser-speech turn (SPEECH_TURN_STREAM_TYPE, one JSON object a line): a
 * part of the line to speak as soon as the language model has written it and it can no longer
 * change (domain/line-parts.ts settledParts, in the order they are said), then the whole reply,
 * whose `say` holds those parts and the rest; or, for a failure after the first part, its sentence
 * and the status it would have answered. A turn whole before any part was settled (the scripted
 * interviewer's, or a refusal) answers as usual: one JSON body, or an error status.
 */
export const turnLineSchema = z.union([
  z.object({ say: z.string() }),
  z.object({ reply: turnResponseSchema }),
  z.object({ error: z.string(), status: z.number().int() }),
]);
export type TurnLine = z.infer<typeof turnLineSchema>;

/** POST /interview/sessions/{id}/abandon: a start that failed in the browser. */
export const sessionParamsSchema = z.object({ id: z.string().max(100) });
export const abandonResponseSchema = z.object({
  sessionId: z.string(),
  status: z.literal('abandoned'),
  /** false only for a session that ended earlier without a refund (daily refunds used up). */
  creditReturned: z.boolean(),
});
export type AbandonResponse = z.infer<typeof abandonResponseSchema>;

/** Speech pipeline: the session token of POST /interview/speech-answer (its body is the audio). */
export const speechAnswerHeadersSchema = userHeadersSchema.extend({
  'x-session-token': z.string().min(1).max(200),
});

/**
 * Speech pipeline, POST /interview/speech-transcript: one piece of a spoken answer (the audio up to
 * a pause) written down; null when speech-to-text failed. No turn is taken.
 */
export const speechTranscriptResponseSchema = z.object({ heard: z.string().nullable() });
export type SpeechTranscriptResponse = z.infer<typeof speechTranscriptResponseSchema>;

/** Speech pipeline: one interviewer turn, its voice streamed from the `audio` paths in order. */
export const speechTurnResponseSchema = z.object({
  /** What the speech-to-text server heard in the answer's audio; null for a typed answer or the opening. */
  heard: z.string().nullable(),
  /** What the interviewer says next (or the closing remark, or an apology when `retry`). */
  say: z.string(),
  closeSession: z.object({ reason: z.string() }).nullable(),
  /** Paths (GET, no headers needed) of the interviewer's audio, one per part of `say`. */
  audio: z.array(z.string()),
  /** The answer was not taken (nothing heard, or an upstream failed): `say` apologises; answer again. */
  retry: z.boolean(),
});
export type SpeechTurnResponse = z.infer<typeof speechTurnResponseSchema>;

/** POST /interview/speech-turn's headers: `accept: application/x-ndjson` asks for the streamed answer. */
export const speechTurnHeadersSchema = turnHeadersSchema;

/**
 * One line of a streamed speech turn (SPEECH_TURN_STREAM_TYPE, one JSON object a line): a clip path
 * as soon as its clip exists (in the order they are played), then the whole reply, whose `audio`
 * lists every path again; or, for a failure after the first path, its sentence and the status it
 * would have answered. A turn that has no audio before it is whole (or fails first) answers as
 * usual: one JSON body, or an error status.
 */
export const speechTurnLineSchema = z.union([
  z.object({ audio: z.string() }),
  z.object({ reply: speechTurnResponseSchema }),
  z.object({ error: z.string(), status: z.number().int() }),
]);
export type SpeechTurnLine = z.infer<typeof speechTurnLineSchema>;

/**
 * GET /interview/sessions/live: the caller's interview that is still open (after a reload, a closed
 * tab or in a new tab), so the app can offer to continue it or to end it with feedback.
 */
export const liveSessionSchema = z.object({
  sessionId: z.string(),
  questionSetId: z.number().int(),
  /** The set's name (the topic). */
  topic: z.string(),
  transport: z.enum(['openai-realtime', 'browser-speech', 'speech-pipeline']),
  startedAt: timestampSchema,
  /** Whole seconds since it was minted (the rating's duration goes on from here). */
  elapsedSeconds: z.number().int().nonnegative(),
  /** What the server stored of the interview so far. */
  transcript: z.array(transcriptEntrySchema),
  /** false: it can only be ended (the interviewer closed it, its reconnections are used up, or this server runs another voice mode). */
  canContinue: z.boolean(),
});
export const liveSessionResponseSchema = z.object({ session: liveSessionSchema.nullable() });
export type LiveSession = z.infer<typeof liveSessionSchema>;
export type LiveSessionResponse = z.infer<typeof liveSessionResponseSchema>;
