/** The interviewee's calls (spec §7), each parsed with the shared contract. */
import { z } from 'zod';
import {
  HISTORY_PAGE_SIZE,
  loginResponseSchema,
  publicConfigSchema,
  questionSetListSchema,
  rateResponseSchema,
  ratingsResponseSchema,
  tokenResponseSchema,
  type PublicConfig,
  type RateRequest,
} from '../../../contract';
import { callApi, userHeaders } from './http';

export const fetchConfig = () => callApi('/api/config', publicConfigSchema);

/** x-user-email is optional here: premium model answers only come back for an active pro. */
export const fetchQuestionSets = (email: string | null) =>
  callApi('/api/question-sets', questionSetListSchema, email ? { headers: userHeaders(email) } : {});

export const login = (email: string) => callApi('/user/login', loginResponseSchema, { method: 'POST', body: { email } });

export const sendFeedback = (email: string, body: { feedback: string; topic: string; questionIndex: number }) =>
  callApi('/user/feedback', z.unknown(), { method: 'POST', body, headers: userHeaders(email) });

export const fetchToken = (email: string, questionSetId: number) =>
  callApi(`/interview/token?questionSetId=${encodeURIComponent(String(questionSetId))}`, tokenResponseSchema, {
    headers: userHeaders(email),
  });

export const rateTranscript = (email: string, body: RateRequest) =>
  callApi('/interview/rate-transcript', rateResponseSchema, { method: 'POST', body, headers: userHeaders(email) });

export const fetchRatings = (email: string, page: number, limit: number = HISTORY_PAGE_SIZE) =>
  callApi(`/user/ratings?page=${page}&limit=${limit}`, ratingsResponseSchema, {
    headers: { ...userHeaders(email), 'content-type': 'application/json' },
  });

/** Used until /api/config answers, and if it never does. */
export const FALLBACK_CONFIG: PublicConfig = {
  productName: 'Interview',
  supportChatUrl: '',
  supportContacts: [],
  voiceMode: 'browser-speech',
  dogImageApi: null,
};
