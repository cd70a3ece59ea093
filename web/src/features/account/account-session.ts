/**
 * Who is logged in on this page (docs/product-rules.md, Login and identity). The main route's
 * loader reads it (`loadAccount`), its action changes it (`logIn`, `markFeedbackGiven`); between
 * the two it is kept here, so a reload of the route's data after a form is sent asks the server nothing.
 */
import type { LoginResponse, QuestionSet } from '../../../../contract';
import { fetchQuestionSets, login } from '../../lib/api';
import { dataOr, submitData, type FailureTexts } from '../../lib/load-data';
import { readStored, removeStored, USER_EMAIL_KEY, writeStored } from '../../lib/storage';

export const LOGIN_NETWORK_ERROR = 'An error occurred during login.';

const LOGIN_TEXTS: FailureTexts = { http: (message) => `Login failed: ${message}`, network: LOGIN_NETWORK_ERROR, log: 'Login failed:' };

export interface Account {
  email: string;
  profile: LoginResponse;
  sets: QuestionSet[];
}

/** The main route's data: the account, or why the stored email could not log in. */
export interface AccountData {
  account: Account | null;
  loginError: string | null;
}

export type LoginOutcome = { ok: true; isNewUser: boolean } | { ok: false; error: string };

let current: Account | null = null;

/**
 * Success stores the email and loads the topic list; failure removes the stored email and says
 * `Login failed: …` or the network sentence.
 */
export async function logIn(rawEmail: string): Promise<LoginOutcome> {
  const email = rawEmail.trim();
  const result = await submitData(login(email), LOGIN_TEXTS);
  if (!result.ok) {
    removeStored(USER_EMAIL_KEY);
    current = null;
    return result;
  }
  writeStored(USER_EMAIL_KEY, email);
  const sets = await dataOr(fetchQuestionSets(email), [], 'Could not load the question sets:');
  current = { email, profile: result.data, sets };
  return { ok: true, isNewUser: result.data.isNewUser };
}

/** The loader: a stored email logs in by itself (once per page); without one nobody is logged in. */
export async function loadAccount(): Promise<AccountData> {
  const stored = readStored(USER_EMAIL_KEY);
  if (!stored) return { account: null, loginError: null };
  if (current?.email === stored) return { account: current, loginError: null };
  const outcome = await logIn(stored);
  return { account: current, loginError: outcome.ok ? null : outcome.error };
}

/** The action of the email dialog's form (field `email`). */
export function loginAction(form: FormData): Promise<LoginOutcome> {
  return logIn(String(form.get('email') ?? ''));
}

/** Leaving the main screen: what it showed may be out of date when it comes back (an interview spent a credit), so it logs in again. */
export function forgetAccount(): void {
  current = null;
}

export function currentEmail(): string | null {
  return current?.email ?? null;
}

/** docs/product-rules.md, Topic tiles: the topic counts as having feedback from now on. */
export function markFeedbackGiven(topic: string): void {
  if (!current) return;
  const { profile } = current;
  current = { ...current, profile: { ...profile, topicFeedback: { ...profile.topicFeedback, [topic]: true } } };
}

/** The dialog a logged-in page opens first: Welcome for a new user, the topic list otherwise. */
export function firstDialogAfterLogin(isNewUser: boolean): 'welcome' | 'topics' {
  return isNewUser ? 'welcome' : 'topics';
}
