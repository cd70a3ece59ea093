import { useCallback, useState } from 'react';
import type { LoginResponse, QuestionSet } from '../../../../contract';
import { fetchQuestionSets, login as loginCall } from '../../lib/api';
import { removeStored, USER_EMAIL_KEY, writeStored } from '../../lib/storage';

export const LOGIN_NETWORK_ERROR = 'An error occurred during login.';

export interface AccountState {
  email: string | null;
  profile: LoginResponse | null;
  error: string | null;
  busy: boolean;
  sets: QuestionSet[];
}

/**
 * docs/product-rules.md, Login and identity: success stores the email and loads the sets; failure removes the stored email
 * and shows `Login failed: ...` or the network text. Returns whether the user is new, or null.
 */
export function useAccount() {
  const [state, setState] = useState<AccountState>({ email: null, profile: null, error: null, busy: false, sets: [] });

  const login = useCallback(async (rawEmail: string): Promise<{ isNewUser: boolean } | null> => {
    const email = rawEmail.trim();
    setState((s) => ({ ...s, busy: true, error: null }));
    const result = await loginCall(email);
    if (!result.ok) {
      removeStored(USER_EMAIL_KEY);
      if (result.kind !== 'http') console.error('Login failed:', result.error);
      const error = result.kind === 'http' ? `Login failed: ${result.message}` : LOGIN_NETWORK_ERROR;
      setState((s) => ({ ...s, email: null, profile: null, busy: false, error }));
      return null;
    }
    writeStored(USER_EMAIL_KEY, email);
    setState((s) => ({ ...s, email, profile: result.data, busy: false, error: null }));
    const sets = await fetchQuestionSets(email);
    if (sets.ok) setState((s) => ({ ...s, sets: sets.data }));
    else console.error('Could not load the question sets:', sets.kind === 'http' ? sets.message : sets.error);
    return { isNewUser: result.data.isNewUser };
  }, []);

  /** docs/product-rules.md, Topic tiles: the topic counts as having feedback from now on. */
  const markFeedbackGiven = useCallback((topic: string) => {
    setState((s) => (s.profile ? { ...s, profile: { ...s.profile, topicFeedback: { ...s.profile.topicFeedback, [topic]: true } } } : s));
  }, []);

  return { ...state, login, markFeedbackGiven };
}
