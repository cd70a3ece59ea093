/**
 * The one Drizzle pg-core schema for PGlite and PostgreSQL. Migrations in ./migrations are
 * generated from it with `npm run db:generate`; a test keeps the two in step.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { RatingBreakdown, SessionEndReason, SessionError, SessionInput, SessionUsage, TranscriptEntry } from '../../contract';

export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    /** Trimmed and lower-cased. */
    email: text('email').notNull(),
    /** Present means Pro. */
    subscriptionId: text('subscription_id'),
    /** null = the plan default from config. */
    sessionLimit: integer('session_limit'),
    sessionsUsed: integer('sessions_used').notNull().default(0),
    /**
     * Rated interviews of this account, kept with each rating (same transaction) so the admin
     * stats read one row per account instead of scanning every event.
     */
    ratedInterviews: integer('rated_interviews').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('accounts_email_key').on(t.email)],
);

export const questionSets = pgTable(
  'question_sets',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    index: integer('index').notNull(),
    isPremium: boolean('is_premium').notNull().default(false),
    requiresFeedback: boolean('requires_feedback').notNull().default(false),
    questions: jsonb('questions').$type<string[]>().notNull(),
    instructions: text('instructions').notNull().default(''),
    modelAnswers: text('model_answers').notNull().default(''),
    /** Set by an admin edit; `catalogue:sync` leaves such sets alone unless forced. */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    /**
     * Set when another set's move, insertion, deletion or archiving shifted this one to a new index
     * (not an edit of it: the editor does not mark it "edited here"); `catalogue:sync`, which
     * matches sets by index, leaves it alone like an edited one.
     */
    movedAt: timestamp('moved_at', { withTimezone: true }),
    /** Hidden from candidates; kept because interviews refer to it (history keeps its topic). */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  // An archived set gives its index up, so a new set can take its place in the tile order.
  (t) => [
    uniqueIndex('question_sets_index_key')
      .on(t.index)
      .where(sql`${t.archivedAt} is null`),
  ],
);

/**
 * A question set's content as the rules and providers read it (the public shape plus the
 * interviewer's instructions); the admin editor's bookkeeping columns are left out.
 */
export type QuestionSetRecord = Omit<typeof questionSets.$inferSelect, 'editedAt' | 'movedAt' | 'archivedAt'>;
/** A set as the catalogue's Markdown files describe it (the database assigns the id). */
export type CatalogueSet = Omit<QuestionSetRecord, 'id'>;

/** failed: retried in the background with backoff; given_up: retries exhausted (transcript kept). */
export type RatingStatus = 'pending' | 'rated' | 'failed' | 'given_up';

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    /** START or RATE (other values possible). */
    eventType: text('event_type').notNull(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** Kept when the account is deleted, so the admin list still names the user. */
    userEmail: text('user_email'),
    questionSetId: integer('question_set_id').references(() => questionSets.id, { onDelete: 'set null' }),
    topic: text('topic'),
    /** 0-based: set.index - 1 (history cards show index + 1: docs/product-rules.md, Results and history). */
    questionSetIndex: integer('question_set_index'),
    sessionId: uuid('session_id'),
    eventTimestamp: timestamp('event_timestamp', { withTimezone: true }).notNull().defaultNow(),
    durationSeconds: integer('duration_seconds'),
    transcript: jsonb('transcript').$type<TranscriptEntry[]>(),
    /**
     * The admin list's preview of the transcript (its first EVENT_PREVIEW_ENTRIES entries, each cut
     * to EVENT_PREVIEW_CHARS characters) and whether it leaves anything out, kept by the database
     * whenever the transcript is written: computing them at read time detoasted 500 transcripts of
     * 200,000 characters for one page, which on PGlite held the server's thread 412 ms (issue 33
     * item 2). The functions are created in migration 0014 (its constants are the contract's).
     */
    transcriptPreview: jsonb('transcript_preview')
      .$type<TranscriptEntry[]>()
      .generatedAlwaysAs(sql`event_transcript_preview(transcript)`),
    transcriptCut: boolean('transcript_cut').generatedAlwaysAs(sql`event_transcript_cut(transcript)`),
    /** RATE only: pending until the rater answered (completed after a crash at start-up). */
    ratingStatus: text('rating_status').$type<RatingStatus>(),
    ratingMarkdown: text('rating_markdown'),
    /** RATE only: the rating per question (verdict, score, key points, evidence); null before it existed. */
    ratingBreakdown: jsonb('rating_breakdown').$type<RatingBreakdown>(),
    score: real('score'),
    rater: text('rater'),
    /** RATE only: rating attempts so far; a failed rating is retried in the background until a cap. */
    ratingAttempts: integer('rating_attempts').notNull().default(0),
    /** RATE only: when a failed rating is tried again (null: not scheduled). */
    nextRatingAt: timestamp('next_rating_at', { withTimezone: true }),
  },
  (t) => [
    // a user's ratings newest first (history, login progress, stats)
    index('events_account_type_id_idx').on(t.accountId, t.eventType, t.id),
    // ratings to complete or retry (at start-up and in the background)
    index('events_unrated_idx')
      .on(t.ratingStatus)
      .where(sql`${t.ratingStatus} in ('pending', 'failed')`),
    // one rating per session, whatever the concurrency
    uniqueIndex('events_session_rating_key')
      .on(t.sessionId)
      .where(sql`${t.eventType} = 'RATE' and ${t.sessionId} is not null`),
  ],
);

export const feedback = pgTable(
  'feedback',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    userEmail: text('user_email'),
    topic: text('topic').notNull(),
    questionIndex: integer('question_index').notNull(),
    feedback: text('feedback').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('feedback_account_topic_idx').on(t.accountId, t.topic)],
);

/**
 * An interview session's lifecycle (docs/decisions/002-credit-accounting.md):
 * minted (token issued, credit spent) -> live (the interview is under way) -> rated (a transcript
 * was stored for rating), or abandoned (credit returned: failed start, nothing said) / expired
 * (never rated within the rating window).
 */
export type SessionStatus = 'minted' | 'live' | 'rated' | 'abandoned' | 'expired';

export const interviewSessions = pgTable(
  'interview_sessions',
  {
    id: uuid('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    questionSetId: integer('question_set_id')
      .notNull()
      .references(() => questionSets.id, { onDelete: 'cascade' }),
    transport: text('transport').notNull(),
    /** sha256 of the session token of a transport that uses POST /interview/turn; never the token. */
    tokenHash: text('token_hash'),
    status: text('status').$type<SessionStatus>().notNull().default('minted'),
    turns: jsonb('turns').$type<TranscriptEntry[]>().notNull().default([]),
    /** Interviewer turns asked for (each one LLM call at most); capped per session. */
    turnCalls: integer('turn_calls').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The interviewer closed the interview (no more turns); the session still awaits its rating. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** When the session's credit was given back (abandoned); counts toward the daily refund cap. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** Continuation calls started after a dropped connection (POST /interview/sessions/{id}/resume); capped. */
    resumes: integer('resumes').notNull().default(0),
    /** When the current token was issued (a resume issues a new one); null: at creation. */
    tokenIssuedAt: timestamp('token_issued_at', { withTimezone: true }),
    // Telemetry (docs/product-rules.md, Session telemetry; docs/decisions/012-session-telemetry.md).
    /** The connection came up: the SDP answer went back (OpenAI), or the browser said so (turn-taking transports). */
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    /** When the interview ended (the first end recorded wins; a resume clears it). */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason').$type<SessionEndReason>(),
    /** Words that go with the reason: the interviewer's close reason, a failed start's sentence, an error code. */
    endDetail: text('end_detail'),
    /** Browser speech: `typed` when the browser cannot recognise speech (answers are typed). */
    input: text('input').$type<SessionInput>(),
    /** Usage counters summed over the session's calls (tokens, seconds, characters) and the models they ran on. */
    usage: jsonb('usage').$type<SessionUsage>().notNull().default({}),
    /** Summed from `usage` with the price table in force when each part was recorded; null: nothing priced. */
    estimatedCostUsd: doublePrecision('estimated_cost_usd'),
    /** Upstream errors that did not end the session (and the one that did), the first MAX_SESSION_ERRORS. */
    errors: jsonb('errors').$type<SessionError[]>().notNull().default([]),
    errorCount: integer('error_count').notNull().default(0),
    // Budgets (README, Security and limits).
    /** OpenAI voice: the token hash whose call was claimed (one conditional UPDATE before the upstream call); one call per token. */
    callTokenHash: text('call_token_hash'),
    /** Speech pipeline: spoken answers taken and their seconds of audio, each reserved before speech-to-text is paid for. */
    speechAnswers: integer('speech_answers').notNull().default(0),
    speechSeconds: doublePrecision('speech_seconds').notNull().default(0),
    /** The AI rater's language-model calls, each reserved before it is made; capped per session (services/ratings.ts raterCallBudget). */
    raterCalls: integer('rater_calls').notNull().default(0),
    // OpenAI call supervision (services/calls/leases.ts, docs/decisions/015-interviews-outlive-servers.md).
    /** The current OpenAI call's id while a server supervises it (its sideband reopens by this id). */
    callId: text('call_id'),
    /** The server process supervising the call (its instance id); null: nobody, any server may take it. */
    callOwner: text('call_owner'),
    /** The owner renews this; past it another server takes the call over. */
    callLeaseUntil: timestamp('call_lease_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('interview_sessions_token_hash_key').on(t.tokenHash),
    // the caller's newest open session for a set (rating binds to it)
    index('interview_sessions_account_set_idx').on(t.accountId, t.questionSetId, t.createdAt),
    // refunds of an account in the last day
    index('interview_sessions_refunds_idx')
      .on(t.accountId, t.refundedAt)
      .where(sql`${t.refundedAt} is not null`),
    // the dashboard's session figures over a range of days
    index('interview_sessions_created_idx').on(t.createdAt),
    // calls whose lease ran out (taken over by another server)
    index('interview_sessions_call_lease_idx')
      .on(t.callLeaseUntil)
      .where(sql`${t.callId} is not null`),
  ],
);

/** Raw bytes (the driver gives a Buffer on PostgreSQL, a Uint8Array on PGlite). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The interviewer's audio in the speech pipeline (services/speech/clips.ts): one row per clip, its
 * id a random capability, kept for a couple of minutes; any server of a group can serve any clip.
 */
export const speechClips = pgTable(
  'speech_clips',
  {
    id: text('id').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => interviewSessions.id, { onDelete: 'cascade' }),
    /** The clock at the insert itself (not the transaction's start), so the clips of one line keep their order. */
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
    /** pending while text-to-speech streams; done, or failed (the line is shown as text). */
    state: text('state').$type<'pending' | 'done' | 'failed'>().notNull().default('pending'),
  },
  (t) => [
    // the oldest first (expiry, and the clip budget's eviction order)
    index('speech_clips_created_idx').on(t.createdAt),
  ],
);

/** A clip's audio as it arrived from text-to-speech, part after part (a reader streams them in order). */
export const speechClipParts = pgTable(
  'speech_clip_parts',
  {
    clipId: text('clip_id')
      .notNull()
      .references(() => speechClips.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    audio: bytea('audio').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clipId, t.seq] })],
);

/**
 * Fixed-window counters shared by every server process on one PostgreSQL: the login and token
 * rate limits and the admin-secret throttle (services/window-counter.ts). PGlite keeps them in
 * memory (one process), so there this table stays empty.
 */
export const rateLimits = pgTable('rate_limits', {
  /** What is counted, e.g. `route:POST/user/login:203.0.113.7` or `admin:203.0.113.7`. */
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
});

/**
 * SIGNIN=link: the one-time sign-in links sent by mail (services/signin-links.ts). Only the
 * sha256 of a link's token is stored; a link works once (`used_at`) until `expires_at`.
 */
export const signinLinks = pgTable(
  'signin_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** Trimmed, lower-cased, as accounts.email. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('signin_links_email_idx').on(t.email), index('signin_links_expires_idx').on(t.expiresAt)],
);

/**
 * Signed-in browsers (services/auth-sessions.ts): a candidate's (SIGNIN=link) or the operator's
 * after the admin secret was entered once. The cookie holds a random id; only its sha256 is
 * stored, so every server of a group knows every session.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    kind: text('kind').$type<'user' | 'admin'>().notNull(),
    /** The candidate's email; null for an admin session. */
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('auth_sessions_email_idx').on(t.email), index('auth_sessions_expires_idx').on(t.expiresAt)],
);

export const schema = {
  accounts,
  questionSets,
  events,
  feedback,
  interviewSessions,
  speechClips,
  speechClipParts,
  rateLimits,
  signinLinks,
  authSessions,
};
