/**
 * The contract's plain constants, in a module without zod: the browser imports these (and only
 * types from the schema modules), so zod stays off the first screen's JavaScript.
 */

/** The email pattern (docs/product-rules.md, Login and identity). The server trims and lower-cases. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MAX_EMAIL_LENGTH = 254;
/** Control and format characters (zero-width, direction overrides and isolates, soft hyphen): invisible in an address. */
export const HIDDEN_CHARACTER = /[\p{Cc}\p{Cf}]/u;
export const HIDDEN_CHARACTER_ERROR = 'Email must not contain invisible or text-direction characters.';

/** Ids and indexes are PostgreSQL `integer` columns; a larger number can name no row. */
export const MAX_DB_INTEGER = 2_147_483_647;

/**
 * The most active question sets a catalogue holds (the admin editor refuses more). An index is a
 * place in the tile order, 1 to the number of sets, so it is bounded by this too.
 */
export const MAX_QUESTION_SETS = 500;

export const MAX_TRANSCRIPT_ENTRIES = 2000;
export const MAX_TRANSCRIPT_TEXT = 20_000;
export const MAX_DURATION_SECONDS = 4 * 60 * 60;
/** All the text of one transcript together (a 2-hour interview is far shorter). */
export const MAX_TRANSCRIPT_TOTAL_TEXT = 200_000;

/**
 * The admin events list carries previews (issue 33 item 2): at most this many transcript entries,
 * each cut to EVENT_PREVIEW_CHARS characters, and the rating Markdown cut to as many, so a page
 * stays small whatever the table holds; the whole event comes from GET /api/events/{id}.
 */
export const EVENT_PREVIEW_ENTRIES = 6;
export const EVENT_PREVIEW_CHARS = 300;
/** One spoken or typed answer sent to POST /interview/turn. */
export const MAX_UTTERANCE_LENGTH = 4000;

export const FEEDBACK_MIN_LENGTH = 20;
export const FEEDBACK_MAX_LENGTH = 1000;

export const HISTORY_PAGE_SIZE = 9;
export const MAX_RATINGS_PAGE_SIZE = 50;

/** Longest reason a browser may give with a session report (POST /interview/sessions/{id}/report). */
export const MAX_REPORT_DETAIL = 300;

/** The History page lists this many of the key points missed most often (GET /user/progress). */
export const MAX_MISSED_KEY_POINTS = 5;

/**
 * Speech pipeline: POST /interview/speech-turn with `Accept: application/x-ndjson` answers in lines
 * (contract/interview.ts, speechTurnLineSchema): each clip path as soon as it exists, the whole
 * reply last, so the interviewer's voice starts before the language model has written the line.
 */
export const SPEECH_TURN_STREAM_TYPE = 'application/x-ndjson';
