import { useState, type FormEvent } from 'react';
import { Dialog } from '../../components/dialog';
import { setSessionLimit, type EmailAccount } from './admin-api';
import { failureText } from './format';

const FIELD = 'w-28 rounded border border-gray-300 px-2 py-1';
const BUTTON = 'rounded px-3 py-1 text-sm font-medium text-white disabled:cursor-not-allowed disabled:opacity-50';
const MAX_LIMIT = 1_000_000;

/** A whole number from 0 to MAX_LIMIT typed in a field, or null. */
function wholeNumber(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return value <= MAX_LIMIT ? value : null;
}

/**
 * The account's credits: set an own session limit, go back to the plan's default, or add
 * credits (a limit that many sessions higher than the one in force).
 */
export function EmailCreditsDialog({ secret, account, onClose, onChanged }: { secret: string; account: EmailAccount; onClose: () => void; onChanged: () => void }) {
  const [limit, setLimit] = useState(String(account.limit));
  const [extra, setExtra] = useState('5');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (sessionLimit: number | null) => {
    setBusy(true);
    const result = await setSessionLimit(secret, account.email, sessionLimit);
    setBusy(false);
    if (!result.ok) {
      setError(failureText(result, 'Failed to update the session limit', 'An error occurred while updating the session limit.'));
      return;
    }
    onChanged();
    onClose();
  };

  const submitLimit = (event: FormEvent) => {
    event.preventDefault();
    const value = wholeNumber(limit);
    if (value === null) setError(`The session limit must be a whole number from 0 to ${MAX_LIMIT}.`);
    else void save(value);
  };

  const submitExtra = (event: FormEvent) => {
    event.preventDefault();
    const value = wholeNumber(extra);
    if (value === null || value === 0) setError('Credits to add must be a whole number of at least 1.');
    else void save(Math.min(MAX_LIMIT, account.limit + value));
  };

  return (
    <Dialog title={`Credits for ${account.email}`} onClose={onClose} size="sm" testId="credits-dialog">
      <p className="mb-4 text-sm text-gray-700" data-testid="credits-summary">
        {account.plan === 'pro' ? 'Pro' : 'Free'} plan · limit {account.limit}
        {account.sessionLimit === null ? ' (plan default)' : ' (own limit)'} · used {account.sessionsUsed} · remaining {account.remaining}
      </p>
      {error !== null && (
        <p role="alert" className="mb-3 rounded bg-red-50 p-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <form onSubmit={submitLimit} noValidate className="mb-3 flex items-end gap-2">
        <label className="flex flex-col text-sm">
          Own session limit
          <input type="number" min={0} max={MAX_LIMIT} value={limit} onChange={(e) => setLimit(e.target.value)} className={FIELD} />
        </label>
        <button type="submit" disabled={busy} className={`${BUTTON} bg-blue-600 hover:bg-blue-700`}>
          Set limit
        </button>
      </form>
      <form onSubmit={submitExtra} noValidate className="mb-3 flex items-end gap-2">
        <label className="flex flex-col text-sm">
          Credits to add
          <input type="number" min={1} max={MAX_LIMIT} value={extra} onChange={(e) => setExtra(e.target.value)} className={FIELD} />
        </label>
        <button type="submit" disabled={busy} className={`${BUTTON} bg-green-700 hover:bg-green-800`}>
          Add credits
        </button>
      </form>
      <div className="mt-4 flex justify-between gap-2">
        <button type="button" disabled={busy || account.sessionLimit === null} onClick={() => void save(null)} className="rounded bg-gray-200 px-3 py-1 text-sm hover:bg-gray-300 disabled:opacity-50">
          Use plan default
        </button>
        <button type="button" onClick={onClose} className="rounded bg-gray-200 px-4 py-1 text-sm hover:bg-gray-300">
          Close
        </button>
      </div>
    </Dialog>
  );
}
