/**
 * The seams between the services and the outside world (AI providers). Services depend on these
 * interfaces only; `server/providers/index.ts` picks implementations from the parsed config.
 */
import type { RatingBreakdown, TokenResponse, TranscriptEntry, TurnResponse } from '../../contract';
import type { QuestionSetRecord } from '../db/schema';

export interface VoiceSessionInput {
  /** Our id of the interview session (also in the START event). */
  sessionId: string;
  set: QuestionSetRecord;
  userEmail: string;
}

/** Turns an upstream failure into a clear answer; the token service gives the credit back. */
export class ProviderError extends Error {
  constructor(
    message: string,
    /** HTTP status to answer with (e.g. 502 rejected key/malformed, 503 rate limit, 504 timeout). */
    readonly status: number,
    /** Upstream status for the log, when there was one. */
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** The code a session's kept error carries (session telemetry): "HTTP 429", or null without an upstream answer. */
  get upstreamCode(): string | null {
    return this.upstreamStatus === undefined ? null : `HTTP ${this.upstreamStatus}`;
  }
}

/** Mints what the browser needs to open a voice session. */
export interface VoiceProvider {
  readonly transport: TokenResponse['transport'];
  createSession(input: VoiceSessionInput): Promise<TokenResponse>;
}

/** One language-model call's tokens, for the session's telemetry and estimated cost. */
export interface LlmUsage {
  model: string;
  inputTokens: number;
  /** Of the input, read from the provider's prompt cache (billed lower). */
  cachedInputTokens: number;
  outputTokens: number;
}

/** Told the usage of every language-model call a turn or a rating makes (retries and closing remarks included). */
export type LlmUsageMeter = (usage: LlmUsage) => void;

export interface RatingInput {
  set: QuestionSetRecord;
  transcripts: TranscriptEntry[];
  durationSeconds: number;
  meter?: LlmUsageMeter;
  /**
   * Takes one of the session's rater calls before a paid language-model call; false: the session's
   * budget is spent and the rater answers without the model (services/ratings.ts raterCallBudget).
   */
  reserveCall?: (promptChars: number) => Promise<boolean>;
}

export interface RatingResult {
  /** 0-100. */
  score: number;
  markdown: string;
  /** Per question of the set, in order; the Markdown is written from it. */
  breakdown: RatingBreakdown;
  /** Who rated: `rubric`, or `llm:{model}` (shown in the admin event details). */
  rater: string;
}

export interface Rater {
  rate(input: RatingInput): Promise<RatingResult>;
}

/** Browser-speech mode: the interviewer's brain. State lives in the database between turns. */
export interface InterviewerTurnInput {
  set: QuestionSetRecord;
  /** Everything said so far in this session, oldest first. */
  history: TranscriptEntry[];
  /** The candidate's newest answer, absent on the opening turn. */
  utterance?: string;
  meter?: LlmUsageMeter;
  /**
   * Told the line as written so far (speakable text), while a language model still writes it: the
   * speech pipeline synthesises its first sentences meanwhile. Answers true once some of it is
   * being said aloud (a second reply would then follow words already spoken). The returned line is
   * the whole one; an interviewer that has it at once need not call this.
   */
  onDraft?: (sayFar: string) => boolean;
}

/**
 * An interviewer's turn: what the candidate is told (the turn call's answer) and, when the
 * interviewer knows it, the set's question (0-based) its line asks, repeats or follows up on. The
 * server stores it with the line (TranscriptEntry.askedQuestion), and the rating pairs answers by it.
 */
export type InterviewerTurn = TurnResponse & { askedQuestion?: number };

export interface Interviewer {
  nextTurn(input: InterviewerTurnInput): Promise<InterviewerTurn>;
}

/** What the question-set editor asks a language model about one key point. */
export interface PhrasingRequest {
  question: string;
  /** The example answer of that question (Markdown, without the rater's phrasing blocks). */
  modelAnswer: string;
  keyPoint: string;
  /** The question's other key points: a drafted phrasing must not state one of them. */
  otherKeyPoints: string[];
  /** What the set already holds for the point, so the drafts add something new. */
  accepted: string[];
  contradicted: string[];
  meter?: LlmUsageMeter;
  /** Before each language-model request, told its size in characters; false refuses it (the editor's budget). */
  reserveCall?: (promptChars: number) => Promise<boolean>;
}

export interface PhrasingDrafts {
  accepted: string[];
  contradicted: string[];
}

/** Drafts "Also accepted" phrasings and "Contradicted by" misconceptions for the editor (set only when a language model is configured). */
export interface PhrasingDrafter {
  /** The model's name. */
  readonly model: string;
  draft(input: PhrasingRequest): Promise<PhrasingDrafts>;
}
