import { useState, type FormEvent } from 'react';
import { useFetcher } from 'react-router';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import type { EmailActionResult } from './emails-actions';
import { AdminError, DialogFooter } from './page-parts';

/** A data erasure request (the emails route's `erase` action): nothing happens until the operator types the email exactly. */
export function EraseUserDialog({ email, onClose }: { email: string; onClose: () => void }) {
  const fetcher = useFetcher<EmailActionResult | null>();
  const [typed, setTyped] = useState('');
  const confirmed = typed.trim().toLowerCase() === email;
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined;

  const erase = (event: FormEvent) => {
    event.preventDefault();
    if (confirmed) void fetcher.submit({ intent: 'erase', email }, { method: 'post' });
  };

  return (
    <Dialog title={`Erase all data of ${email}`} onClose={onClose} size="sm" testId="erase-dialog">
      {answer?.ok ? (
        <>
          <p role="status" className="mb-3 text-sm">
            {answer.message}
          </p>
          <DialogFooter onClose={onClose} />
        </>
      ) : (
        <form onSubmit={erase} noValidate>
          <p className="mb-3 text-sm text-gray-700">
            This removes the account, its sessions, transcripts, ratings and feedback. It cannot be undone.
          </p>
          <label className="mb-3 flex flex-col text-sm">
            Type {email} to confirm
            <input
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              className="rounded border border-gray-300 px-2 py-1"
            />
          </label>
          <AdminError inDialog error={answer?.ok === false ? answer.error : null} />
          <DialogFooter onClose={onClose} closeLabel="Cancel">
            <Button type="submit" variant="danger" disabled={!confirmed || fetcher.state !== 'idle'}>
              Erase all data
            </Button>
          </DialogFooter>
        </form>
      )}
    </Dialog>
  );
}
