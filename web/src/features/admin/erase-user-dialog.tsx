import { useState, type FormEvent } from 'react';
import { Dialog } from '../../components/dialog';
import { eraseUser } from './admin-api';
import { failureText } from './format';

/** "1 account, 3 events, 1 feedback, 1 session" */
function removedText(removed: { accounts: number; events: number; feedback: number; sessions: number }): string {
  const part = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    part(removed.accounts, 'account', 'accounts'),
    part(removed.events, 'event', 'events'),
    part(removed.feedback, 'feedback', 'feedback'),
    part(removed.sessions, 'session', 'sessions'),
  ].join(', ');
}

/** A data erasure request: nothing happens until the operator types the email exactly. */
export function EraseUserDialog({ secret, email, onClose, onErased }: { secret: string; email: string; onClose: () => void; onErased: () => void }) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const confirmed = typed.trim().toLowerCase() === email;

  const erase = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    setBusy(true);
    const result = await eraseUser(secret, email);
    setBusy(false);
    if (!result.ok) {
      setError(failureText(result, 'Failed to erase the data', 'An error occurred while erasing the data.'));
      return;
    }
    setDone(`Erased ${removedText(result.data.removed)}.`);
    onErased();
  };

  return (
    <Dialog title={`Erase all data of ${email}`} onClose={onClose} size="sm" testId="erase-dialog">
      {done === null ? (
        <form onSubmit={(event) => void erase(event)} noValidate>
          <p className="mb-3 text-sm text-gray-700">
            This removes the account, its sessions, transcripts, ratings and feedback. It cannot be undone.
          </p>
          <label className="mb-3 flex flex-col text-sm">
            Type {email} to confirm
            <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" className="rounded border border-gray-300 px-2 py-1" />
          </label>
          {error !== null && (
            <p role="alert" className="mb-3 rounded bg-red-50 p-2 text-sm text-red-700">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button type="button" onClick={onClose} className="rounded bg-gray-200 px-4 py-1 text-sm hover:bg-gray-300">
              Cancel
            </button>
            <button type="submit" disabled={!confirmed || busy} className="rounded bg-red-700 px-4 py-1 text-sm font-medium text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-50">
              Erase all data
            </button>
          </div>
        </form>
      ) : (
        <>
          <p role="status" className="mb-3 text-sm">
            {done}
          </p>
          <div className="flex justify-end">
            <button type="button" onClick={onClose} className="rounded bg-gray-200 px-4 py-1 text-sm hover:bg-gray-300">
              Close
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
