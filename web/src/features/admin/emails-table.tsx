/** Manage Emails' rows: one per account with its actions, and the inline row that creates one. */
import { useState, type FormEvent } from 'react';
import { useFetcher } from 'react-router';
import { Button } from '../../components/button';
import type { EmailAccount } from './admin-api';
import { useConfig } from '../../lib/config';
import { ConfirmDialog } from './confirm-dialog';
import type { EmailActionResult } from './emails-actions';
import { useFetcherDone } from './use-fetcher-done';

/** The page's changes share one fetcher: one busy state, one failure sentence on show. */
export const EMAIL_ACTIONS_FETCHER = 'email-actions';

export function useEmailActions() {
  return useFetcher<EmailActionResult | null>({ key: EMAIL_ACTIONS_FETCHER });
}

const CREATE_FORM = 'create-email-form';

/**
 * The inline create row. A form may not wrap table rows: an empty form sits in the first cell and
 * the inputs join it by id. It closes once its own submission succeeded; a failure keeps the address.
 */
export function CreateEmailRow({ onDone }: { onDone: () => void }) {
  const fetcher = useEmailActions();
  const [draft, setDraft] = useState('');
  useFetcherDone(fetcher, (answer) => {
    if (answer.intent === 'create' && answer.ok) onDone();
  });

  const save = (event: FormEvent) => {
    event.preventDefault();
    const email = draft.trim();
    if (email === '') {
      window.alert('Email address cannot be empty.');
      return;
    }
    void fetcher.submit({ intent: 'create', email }, { method: 'post' });
  };

  return (
    <tr className="border-b border-gray-100 bg-blue-50">
      <td className="px-3 py-2">
        <form id={CREATE_FORM} noValidate onSubmit={save} />
        <input
          form={CREATE_FORM}
          type="email"
          autoFocus
          aria-label="New email address"
          placeholder="name@example.com"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => event.key === 'Escape' && onDone()}
          className="w-full rounded border border-gray-300 px-2 py-1"
        />
      </td>
      <td className="px-3 py-2" colSpan={4} />
      <td className="flex gap-2 px-3 py-2">
        <Button size="sm" type="submit" form={CREATE_FORM} disabled={fetcher.state !== 'idle'}>
          Save
        </Button>
        <Button size="sm" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </td>
    </tr>
  );
}

interface EmailRowProps {
  account: EmailAccount;
  onCredits: () => void;
  onErase: () => void;
}

/** One account: plan, limit and use, and its actions (docs/product-rules.md, Admin area). */
export function EmailRow({ account, onCredits, onErase }: EmailRowProps) {
  const { config } = useConfig();
  const fetcher = useEmailActions();
  const busy = fetcher.state !== 'idle';
  const pro = account.subscriptionId !== null;
  const { email } = account;
  const send = (intent: string, extra: Record<string, string> = {}) => void fetcher.submit({ intent, email, ...extra }, { method: 'post' });
  const [confirming, setConfirming] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  return (
    <tr className="border-b border-gray-100">
      <td className="px-3 py-2">
        {email}
        {account.mixedScript && (
          <span
            className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900"
            title="This address mixes writing systems (for example a Cyrillic letter among Latin ones): it may imitate another account."
          >
            Mixed scripts
          </span>
        )}
      </td>
      <td className="px-3 py-2">{pro ? 'Pro' : 'Free'}</td>
      <td className="px-3 py-2">
        {account.limit}
        {account.sessionLimit !== null && <span className="text-gray-500"> (own)</span>}
      </td>
      <td className="px-3 py-2">{account.sessionsUsed}</td>
      <td className="px-3 py-2">{account.remaining}</td>
      <td className="flex flex-wrap gap-2 px-3 py-2">
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => send('plan', { pro: String(!pro) })}>
          {pro ? 'Make Free' : 'Make Pro'}
        </Button>
        <Button size="sm" variant="danger" disabled={busy} onClick={() => setConfirming(true)}>
          Delete
        </Button>
        {confirming && (
          <ConfirmDialog
            title="Delete account"
            question={`Are you sure you want to delete ${email}? This action cannot be undone.`}
            removes="This removes the account and its credits only. Its interviews and feedback stay and keep the email; to remove everything stored about this person, use Erase data."
            confirmLabel="Delete account"
            onConfirm={() => send('delete')}
            onClose={() => setConfirming(false)}
          />
        )}
        <Button size="sm" variant="secondary" disabled={busy} onClick={onCredits} aria-label={`Credits for ${email}`}>
          Credits
        </Button>
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => send('export')} aria-label={`Export data of ${email}`}>
          Export data
        </Button>
        <Button size="sm" variant="danger" disabled={busy} onClick={onErase} aria-label={`Erase data of ${email}`}>
          Erase data
        </Button>
        {/* SIGNIN=link only: with the email as identity there are no sessions to end. */}
        {config.signin === 'link' && (
          <Button
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={() => setSigningOut(true)}
            aria-label={`Sign ${email} out everywhere`}
          >
            Sign out everywhere
          </Button>
        )}
        {signingOut && (
          <ConfirmDialog
            title="Sign out everywhere"
            question={`Sign ${email} out of every browser?`}
            removes="Every browser signed in with this email must open a new sign-in link. The account, its credits, interviews and feedback stay."
            confirmLabel="Sign out everywhere"
            onConfirm={() => send('signout')}
            onClose={() => setSigningOut(false)}
          />
        )}
      </td>
    </tr>
  );
}
