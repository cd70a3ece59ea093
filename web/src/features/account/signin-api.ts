/** SIGNIN=link calls (contract/signin.ts; docs/product-rules.md, Sign-in links). The session is an HttpOnly cookie the browser sends by itself. */
import type { SignedIn, SigninLinkResponse } from '../../../../contract';
import { callApi } from '../../lib/http';
import { submitData, type FailureTexts, type Submitted } from '../../lib/load-data';

const LINK_TEXTS: FailureTexts = {
  http: (message) => message,
  network: 'The sign-in link could not be sent: the server did not answer.',
  log: 'Asking for a sign-in link failed:',
};
const SIGNIN_TEXTS: FailureTexts = {
  http: (message) => message,
  network: 'Signing in did not get through. Please try again.',
  log: 'Signing in failed:',
};

export const askSigninLink = (email: string): Promise<Submitted<SigninLinkResponse>> =>
  submitData(callApi<SigninLinkResponse>('/user/signin-link', { method: 'POST', body: { email } }), LINK_TEXTS);

export const openSigninLink = (token: string): Promise<Submitted<SignedIn>> =>
  submitData(callApi<SignedIn>('/user/signin', { method: 'POST', body: { token } }), SIGNIN_TEXTS);
