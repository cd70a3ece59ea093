/**
 * The interviewee's calls after the first screen (contract/user.ts, contract/interview.ts): the
 * interview session, topic feedback and the history, each typed with the shared contract. Only
 * lazy chunks import this module; the first screen's calls are in api.ts.
 */
import { HISTORY_PAGE_SIZE, SPEECH_TURN_STREAM_TYPE } from '../../../contract/limits';
import type {
  AbandonResponse,
  LiveSessionResponse,
  RateRequest,
  RateResponse,
  ProgressResponse,
  RatingTranscript,
  RatingsResponse,
  SessionReport,
  SessionReportResponse,
  SpeechTurnResponse,
  SpeechTranscriptResponse,
  TokenResponse,
  TurnRequest,
  TurnResponse,
} from '../../../contract';
import { callApi, userHeaders, type ApiResult, type CallOptions } from './http';
import { callApiInLines } from './http-lines';

export const sendFeedback = (email: string, body: { feedback: string; topic: string; questionIndex: number }) =>
  callApi<unknown>('/user/feedback', { method: 'POST', body, headers: userHeaders(email) });

export const fetchToken = (email: string, questionSetId: number) =>
  callApi<TokenResponse>(`/interview/token?questionSetId=${encodeURIComponent(String(questionSetId))}`, {
    headers: userHeaders(email),
  });

/** After a reload, a closed tab or in a new tab: the caller's interview that is still open, or null. */
export const fetchLiveSession = (email: string) =>
  callApi<LiveSessionResponse>('/interview/sessions/live', { headers: userHeaders(email) });

/** After a dropped connection: a new token for the same session (no credit spent). */
export const resumeSession = (email: string, sessionId: string) =>
  callApi<TokenResponse>(`/interview/sessions/${encodeURIComponent(sessionId)}/resume`, { method: 'POST', headers: userHeaders(email) });

/** A start that failed after the token was minted: the server gives the credit back (2 minutes). */
export const abandonSession = (email: string, sessionId: string) =>
  callApi<AbandonResponse>(`/interview/sessions/${encodeURIComponent(sessionId)}/abandon`, { method: 'POST', headers: userHeaders(email) });

/** Session telemetry: the transport is up, or why the session ended (docs/product-rules.md, Session telemetry). */
export const reportSession = (email: string, sessionId: string, body: SessionReport) =>
  callApi<SessionReportResponse>(`/interview/sessions/${encodeURIComponent(sessionId)}/report`, {
    method: 'POST',
    body,
    headers: userHeaders(email),
  });

/** The History page's progress: charts, most-missed key points and "practise next" in one call. */
export const fetchProgress = (email: string) => callApi<ProgressResponse>('/user/progress', { headers: userHeaders(email) });

/** Both sides of one rated interview. */
export const fetchRatingTranscript = (email: string, id: number) =>
  callApi<RatingTranscript>(`/user/ratings/${encodeURIComponent(String(id))}/transcript`, { headers: userHeaders(email) });

export const rateTranscript = (email: string, body: RateRequest) =>
  callApi<RateResponse>('/interview/rate-transcript', { method: 'POST', body, headers: userHeaders(email) });

type TurnCallOptions = Pick<CallOptions, 'signal' | 'fetch'>;

/**
 * A turn call: one JSON body, or with `told` its answer in lines (SPEECH_TURN_STREAM_TYPE): what
 * is told before the line is whole (`told` answers true for such a line), then the reply, or a
 * failure after the first told line.
 */
function turnCall<T>(path: string, email: string, body: TurnRequest, call: TurnCallOptions, told?: (line: object) => boolean) {
  const request = { method: 'POST' as const, body, headers: userHeaders(email), ...call };
  if (!told) return callApi<T>(path, request);
  return callApiInLines<T>(path, { ...request, accept: SPEECH_TURN_STREAM_TYPE }, (line): ApiResult<T> | null => {
    if (typeof line !== 'object' || line === null) return { ok: false, kind: 'invalid', status: 200, error: line };
    if (told(line)) return null;
    if ('reply' in line) return { ok: true, data: line.reply as T };
    const failure = line as { error: string; status: number };
    return { ok: false, kind: 'http', status: failure.status, message: failure.error, serverError: failure.error };
  });
}

/** A told line holding `key` (`say`: a part to speak; `audio`: a clip path): its value to `to`, and true. */
function toldAs(key: 'say' | 'audio', to: ((value: string) => void) | undefined): ((line: object) => boolean) | undefined {
  if (!to) return undefined;
  return (line) => {
    const value = (line as Record<string, unknown>)[key];
    if (typeof value !== 'string') return false;
    to(value);
    return true;
  };
}

/**
 * Browser speech: the interviewer's next line (the opening one without an utterance). With
 * `onPart` the answer comes in lines when a language model writes the line: each part to speak as
 * soon as it is settled (its voice can start before the line is whole), then the whole reply.
 */
export const postTurn = (email: string, body: TurnRequest, options: TurnCallOptions & { onPart?: (part: string) => void } = {}) => {
  const { onPart, ...call } = options;
  return turnCall<TurnResponse>('/interview/turn', email, body, call, toldAs('say', onPart));
};

/**
 * Speech pipeline: the interviewer's next line and its voice (the opening one without an
 * utterance). With `onAudio` the answer comes in lines: each clip path as soon as its clip exists
 * (its voice can play before the line is whole), then the whole reply.
 */
export const postSpeechTurn = (email: string, body: TurnRequest, options: TurnCallOptions & { onAudio?: (path: string) => void } = {}) => {
  const { onAudio, ...call } = options;
  return turnCall<SpeechTurnResponse>('/interview/speech-turn', email, body, call, toldAs('audio', onAudio));
};

/** Speech pipeline: one piece of a spoken answer (WAV, up to a pause), written down; no turn is taken. */
export const postSpeechTranscript = (
  email: string,
  sessionToken: string,
  wav: ArrayBuffer,
  options: Pick<CallOptions, 'signal' | 'fetch'> = {},
) =>
  callApi<SpeechTranscriptResponse>('/interview/speech-transcript', {
    method: 'POST',
    body: wav,
    headers: { ...userHeaders(email), 'content-type': 'audio/wav', 'x-session-token': sessionToken },
    ...options,
  });

export const fetchRatings = (email: string, page: number, limit: number = HISTORY_PAGE_SIZE) =>
  callApi<RatingsResponse>(`/user/ratings?page=${page}&limit=${limit}`, {
    headers: { ...userHeaders(email), 'content-type': 'application/json' },
  });
