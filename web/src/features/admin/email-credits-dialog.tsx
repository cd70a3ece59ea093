import { useState, type FormEvent } from 'react';
import { useFetcher } from 'react-router';
import { Button, type ButtonVariant } from '../../components/button';
import { Dialog } from '../../components/dialog';
import type { EmailAccount } from './admin-api';
import type { EmailActionResult } from './emails-actions';
import { AdminError } from './page-parts';
import { useFetcherDone } from './use-fetcher-done';

const MAX_LIMIT = 1_000_000;

/** A whole number from 0 to MAX_LIMIT typed in a field, or null. */
export function wholeNumber(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return value <= MAX_LIMIT ? value : null;
}

interface NumberFormProps {
  label: string;
  initial: string;
  min: number;
  button: string;
  variant: ButtonVariant;
  disabled: boolean;
  onSubmit: (text: string) => void;
}

/** One number field with its button. */
function NumberForm({ label, initial, min, button, variant, disabled, onSubmit }: NumberFormProps) {
  const [text, setText] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(text);
  };
  return (
    <form onSubmit={submit} noValidate className="mb-3 flex items-end gap-2">
      <label className="flex flex-col text-sm">
        {label}
        <input
          type="number"
          min={min}
          max={MAX_LIMIT}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-28 rounded border border-gray-300 px-2 py-1"
        />
      </label>
      <Button size="sm" type="submit" variant={variant} disabled={disabled}>
        {button}
      </Button>
    </form>
  );
}

/**
 * The account's credits (the emails route's `limit` action): set an own session limit, go back to
 * the plan's default, or add credits (a limit that many sessions higher than the one in force).
 */
export function EmailCreditsDialog({ account, onClose }: { account: EmailAccount; onClose: () => void }) {
  const fetcher = useFetcher<EmailActionResult | null>();
  const [refused, setRefused] = useState<string | null>(null);
  const busy = fetcher.state !== 'idle';
  const answer = busy ? undefined : fetcher.data;
  // Done once the change is stored and the list reloaded.
  useFetcherDone(fetcher, (done) => done.ok && onClose());

  const save = (sessionLimit: number | null) => {
    setRefused(null);
    void fetcher.submit(
      { intent: 'limit', email: account.email, sessionLimit: sessionLimit === null ? '' : String(sessionLimit) },
      { method: 'post' },
    );
  };
  const setLimit = (text: string) => {
    const value = wholeNumber(text);
    if (value === null) setRefused(`The session limit must be a whole number from 0 to ${MAX_LIMIT}.`);
    else save(value);
  };
  const addCredits = (text: string) => {
    const value = wholeNumber(text);
    if (value === null || value === 0) setRefused('Credits to add must be a whole number of at least 1.');
    else save(Math.min(MAX_LIMIT, account.limit + value));
  };

  return (
    <Dialog title={`Credits for ${account.email}`} onClose={onClose} size="sm" testId="credits-dialog">
      <p className="mb-4 text-sm text-gray-700" data-testid="credits-summary">
        {account.plan === 'pro' ? 'Pro' : 'Free'} plan · limit {account.limit}
        {account.sessionLimit === null ? ' (plan default)' : ' (own limit)'} · used {account.sessionsUsed} · remaining {account.remaining}
      </p>
      <AdminError inDialog error={refused ?? (answer?.ok === false ? answer.error : null)} />
      <NumberForm
        label="Own session limit"
        initial={String(account.limit)}
        min={0}
        button="Set limit"
        variant="primary"
        disabled={busy}
        onSubmit={setLimit}
      />
      <NumberForm label="Credits to add" initial="5" min={1} button="Add credits" variant="primary" disabled={busy} onSubmit={addCredits} />
      <div className="mt-4 flex justify-between gap-2">
        <Button size="sm" variant="secondary" disabled={busy || account.sessionLimit === null} onClick={() => save(null)}>
          Use plan default
        </Button>
        <Button size="sm" variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}
