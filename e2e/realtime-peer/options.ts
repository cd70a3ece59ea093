/** Behaviour switches of the local realtime peer; tests change them between cases (peer.options). */
import type { VadOptions } from './audio';

export type SecretFailure =
  /** 401 with OpenAI's invalid_api_key body, whatever key is sent. */
  | 'reject-key'
  /** 429 with a rate-limit / quota body. */
  | 'rate-limit'
  /** 403 as for a country, region or territory OpenAI does not serve. */
  | 'forbidden'
  /** Waits `slowMs` before answering (for the server's bounded wait). */
  | 'slow'
  /** 200 with a body that is not a client secret. */
  | 'malformed'
  /** 500 with an HTML page. */
  | 'server-error';

export interface PeerOptions {
  /** The API key the server must send as bearer. */
  apiKey: string;
  /** GA event names (default) or the old beta names for transcript events. */
  eventNames: 'ga' | 'beta';
  secretFailure: SecretFailure | null;
  slowMs: number;
  /** POST /v1/realtime/calls answers 400 with an error body instead of SDP. */
  rejectCalls: boolean;
  /** Ask at most this many questions of the set before calling close_session (null = all). */
  maxQuestions: number | null;
  /** After this many interviewer turns, drop the connection or send an `error` event. */
  midSessionFailure: { afterTurns: number; kind: 'drop' | 'error'; message?: string } | null;
  greeting: string;
  closingRemark: string;
  closeReason: string;
  /** What the "transcription" says for the candidate's n-th utterance (cycled). */
  answers: string[];
  /** Length of each interviewer turn's tone. */
  speechMs: number;
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
    eventNames: 'ga',
    secretFailure: null,
    slowMs: 15_000,
    rejectCalls: false,
    maxQuestions: null,
    midSessionFailure: null,
    greeting: 'Hello and welcome to your practice interview.',
    closingRemark: 'Thank you for your time today. Your written feedback is being prepared.',
    closeReason: 'all questions covered',
    answers: [
      'I would start by clarifying the requirements, then explain the trade-offs of two approaches and pick the simpler one.',
      'In my last project I measured first, found the slow query, added an index and verified the result with a benchmark.',
      'I would write tests for the edge cases, such as empty input, very large input and invalid values.',
    ],
    speechMs: 1500,
    vad: {},
    turnGate: null,
  };
}
