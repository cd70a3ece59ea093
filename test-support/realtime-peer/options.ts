/** Behaviour switches of the local realtime peer; tests change them between cases (peer.options). */
import type { VadOptions } from './audio';

export type CallFailure =
  /** 401 with OpenAI's invalid_api_key body, whatever key is sent. */
  | 'reject-key'
  /** 429 rate limit. */
  | 'rate-limit'
  /** 429 insufficient_quota (the account's credit is used up). */
  | 'quota'
  /** 403 as for a country, region or territory OpenAI does not serve. */
  | 'forbidden'
  /** Waits `slowMs` before answering (for the server's bounded wait). */
  | 'slow'
  /** 201 without a Location header (no call id). */
  | 'no-location'
  /** 500 with an HTML page. */
  | 'server-error'
  /** 503, overloaded. */
  | 'unavailable';

export type MidSessionFailure =
  /** The provider drops the WebRTC connection (and the sideband with it); once, then the script clears. */
  | 'drop'
  /** As 'drop', but once the candidate's answer to that turn was transcribed (before the next question; speech before that turn ended is not heard). */
  | 'drop-after-answer'
  /** As 'drop', and nothing the candidate says in that call before it gets through (the answer is lost with the connection). */
  | 'drop-before-answer'
  /** A fatal `error` (session_expired); the service closes the call. */
  | 'fatal-error'
  /** An `error` the session survives (most are, per the SDK). */
  | 'recoverable-error'
  /** A `response.done` with status failed (e.g. quota used up mid-interview). */
  | 'failed-response';

export interface PeerOptions {
  /** The API key the server must send as bearer. */
  apiKey: string;
  callFailure: CallFailure | null;
  slowMs: number;
  /** Ask at most this many questions of the set before calling close_session (null = all). */
  maxQuestions: number | null;
  /** After this many interviewer turns, the failure happens. */
  midSessionFailure: { afterTurns: number; kind: MidSessionFailure; message?: string } | null;
  /** The candidate's n-th utterances (1-based) whose transcription fails. */
  failTranscriptions: number[];
  /**
   * Right after close_session's result arrives, the candidate "speaks" and the service starts its
   * own VAD response, so the closing remark's response.create meets an active response.
   */
  overlapOnClose: boolean;
  greeting: string;
  closingRemark: string;
  closeReason: string;
  /** What the "transcription" says for the candidate's n-th utterance (cycled). */
  answers: string[];
  /** What the VAD response overlapping the close would have said. */
  overlapLine: string;
  /** Length of each interviewer turn's tone. */
  speechMs: number;
  /** Between response.created and the first audio (the model "thinking"). */
  responseLatencyMs: number;
  vad: Partial<VadOptions>;
  /**
   * Lets a test hold the interview at a known point instead of racing it: awaited before interviewer
   * turn n starts ('before') and while it is speaking ('speaking'; the tone plays until it resolves).
   */
  turnGate: ((point: 'before' | 'speaking', turn: number) => Promise<void> | void) | null;
}

export function defaultPeerOptions(): PeerOptions {
  return {
    apiKey: 'test-key',
    callFailure: null,
    slowMs: 15_000,
    maxQuestions: null,
    midSessionFailure: null,
    failTranscriptions: [],
    overlapOnClose: false,
    greeting: 'Hello and welcome to your practice interview.',
    closingRemark: 'Thank you for your time today. Your written feedback is being prepared.',
    closeReason: 'all questions covered',
    answers: [
      'I would start by clarifying the requirements, then explain the trade-offs of two approaches and pick the simpler one.',
      'In my last project I measured first, found the slow query, added an index and verified the result with a benchmark.',
      'I would write tests for the edge cases, such as empty input, very large input and invalid values.',
    ],
    overlapLine: 'Oh, one more thing before you go.',
    speechMs: 1500,
    responseLatencyMs: 150,
    vad: {},
    turnGate: null,
  };
}
