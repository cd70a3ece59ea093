/**
 * Manage Emails' changes (docs/product-rules.md, Admin area), run by the emails route's action:
 * one form field `intent` says which. Each answers `{ok}` or the sentence to show; the router then
 * reloads the list (every action reloads it), except after a data export, which changes nothing.
 */
import type { UserErasure } from '../../../../contract/admin-users';
import { submitData, type FailureTexts, type Submitted } from '../../lib/load-data';
import {
  createEmail,
  deleteEmail,
  eraseUser,
  fetchUserData,
  setPlan,
  setSessionLimit,
  signOutEverywhere,
  type AdminSession,
} from './admin-api';
import { downloadBlob } from './csv-exports';
import { adminTexts } from './format';

export const EMAIL_INTENTS = ['create', 'plan', 'delete', 'export', 'limit', 'erase', 'signout'] as const;
export type EmailIntent = (typeof EMAIL_INTENTS)[number];

/** The action's answer; `message` is the erasure's summary or how many sessions a sign-out ended. */
export type EmailActionResult = { intent: EmailIntent } & ({ ok: true; message?: string } | { ok: false; error: string });

/** The failure texts of each change (docs/product-rules.md, Admin area). */
const TEXTS: Record<EmailIntent, FailureTexts> = {
  create: {
    http: (_message, failure) => `Failed to create email: ${failure.serverError ?? 'Could not create email.'}`,
    network: 'An error occurred while creating the email.',
  },
  plan: { http: () => 'Failed to update plan.', network: 'An error occurred while updating the plan.' },
  delete: { http: () => 'Failed to delete email.', network: 'An error occurred while deleting the email.' },
  export: adminTexts('Failed to export the data', 'An error occurred while exporting the data.'),
  limit: adminTexts('Failed to update the session limit', 'An error occurred while updating the session limit.'),
  erase: adminTexts('Failed to erase the data', 'An error occurred while erasing the data.'),
  signout: adminTexts('Failed to sign the email out', 'An error occurred while signing the email out.'),
};

/** "Signed a@example.com out everywhere: 2 sessions ended." */
export function signedOutText(email: string, ended: number): string {
  return `Signed ${email} out everywhere: ${ended} ${ended === 1 ? 'session' : 'sessions'} ended.`;
}

/** "1 account, 3 events, 1 feedback, 1 session" */
export function removedText(removed: UserErasure['removed']): string {
  const part = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    part(removed.accounts, 'account', 'accounts'),
    part(removed.events, 'event', 'events'),
    part(removed.feedback, 'feedback', 'feedback'),
    part(removed.sessions, 'session', 'sessions'),
  ].join(', ');
}

function intentOf(form: FormData): EmailIntent {
  const intent = form.get('intent');
  const known = EMAIL_INTENTS.find((name) => name === intent);
  if (known === undefined) throw new Error(`Unknown emails action: ${String(intent)}`);
  return known;
}

async function run(intent: EmailIntent, session: AdminSession, form: FormData): Promise<Submitted<unknown> & { message?: string }> {
  const email = String(form.get('email') ?? '').trim();
  const texts = TEXTS[intent];
  switch (intent) {
    case 'create':
      return submitData(createEmail(session, email), texts);
    case 'plan':
      return submitData(setPlan(session, email, form.get('pro') === 'true'), texts);
    case 'delete':
      return submitData(deleteEmail(session, email), texts);
    case 'limit': {
      // Empty: back to the plan's default.
      const limit = String(form.get('sessionLimit') ?? '');
      return submitData(setSessionLimit(session, email, limit === '' ? null : Number(limit)), texts);
    }
    case 'erase': {
      const answer = await submitData(eraseUser(session, email), texts);
      return answer.ok ? { ...answer, message: `Erased ${removedText(answer.data.removed)}.` } : answer;
    }
    case 'signout': {
      // SIGNIN=link: every browser signed in with the email must open a new link.
      const answer = await submitData(signOutEverywhere(session, email), texts);
      return answer.ok ? { ...answer, message: signedOutText(answer.data.email, answer.data.ended) } : answer;
    }
    case 'export': {
      // A data request: everything stored about the person, as one JSON file.
      const answer = await submitData(fetchUserData(session, email), texts);
      if (answer.ok)
        downloadBlob(`user-data-${email}.json`, new Blob([JSON.stringify(answer.data, null, 2)], { type: 'application/json' }));
      return answer;
    }
  }
}

export async function runEmailAction(session: AdminSession, form: FormData): Promise<EmailActionResult> {
  const intent = intentOf(form);
  const answer = await run(intent, session, form);
  return answer.ok ? { intent, ok: true, message: answer.message } : { intent, ok: false, error: answer.error };
}
