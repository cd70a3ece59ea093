/**
 * The interviewee's calls after the first screen (contract/user.ts, contract/interview.ts): the
 * interview session, topic feedback and the history, each typed with the shared contract. Only
 * lazy chunks import this module; the first screen's calls are in api.ts.
 */
import { HISTORY_PAGE_SIZE } from '../../../contract/limits';
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
import { callApi, userHeaders, type CallOptions } from './http';

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

/** Browser speech: the interviewer's next line (the opening one without an utterance). */
export const postTurn = (email: string, body: TurnRequest, options: Pick<CallOptions, 'signal' | 'fetch'> = {}) =>
  callApi<TurnResponse>('/interview/turn', { method: 'POST', body, headers: userHeaders(email), ...options });

/** Speech pipeline: the interviewer's next line and its voice after a typed answer (the opening one without an utterance). */
export const postSpeechTurn = (email: string, body: TurnRequest, options: Pick<CallOptions, 'signal' | 'fetch'> = {}) =>
  callApi<SpeechTurnResponse>('/interview/speech-turn', { method: 'POST', body, headers: userHeaders(email), ...options });

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
