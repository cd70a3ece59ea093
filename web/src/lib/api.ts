/**
 * The calls the first screen's loaders make (the settings, login, the question sets), each typed
 * with the shared contract. The calls of later clicks are in session-api.ts, so the first screen's
 * script does without them (docs/first-screen.md).
 */
import type { LoginResponse, PublicConfig, QuestionSetList } from '../../../contract';
import { DEFAULT_TURN_PAUSES } from '../../../domain/answer-ending';
import { callApi, userHeaders } from './http';

export const fetchConfig = () => callApi<PublicConfig>('/api/config');

/** x-user-email is optional here: premium model answers only come back for an active pro. */
export const fetchQuestionSets = (email: string | null) =>
  callApi<QuestionSetList>('/api/question-sets', email ? { headers: userHeaders(email) } : {});

export const login = (email: string) => callApi<LoginResponse>('/user/login', { method: 'POST', body: { email } });

/** Used until /api/config answers, and if it never does. */
export const FALLBACK_CONFIG: PublicConfig = {
  productName: 'Interview',
  supportChatUrl: '',
  supportContacts: [],
  voiceMode: 'browser-speech',
  turnPauses: DEFAULT_TURN_PAUSES,
  dogImageApi: null,
  signin: 'email',
};
