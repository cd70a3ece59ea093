import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import type { GateState } from './admin-session';

interface AdminGateProps {
  state: GateState;
  onSubmit: (secret: string) => void;
}

/**
 * What was typed into the gate, kept across its two instances: while the page loads, the loading
 * fallback (gate-fallback.tsx) shows the gate, and the admin layout's gate then replaces it; a
 * secret typed into the first was lost when the second mounted empty. In memory only, and emptied
 * when it is sent.
 */
const typed = { secret: '' };

/** docs/product-rules.md, Admin area: the modal in front of the admin area until a secret is verified. */
export function AdminGate({ state, onSubmit }: AdminGateProps) {
  const [secret, setSecretState] = useState(typed.secret);
  const setSecret = (value: string) => {
    typed.secret = value;
    setSecretState(value);
  };
  const inputId = useId();
  const verifying = state.status === 'verifying';
  const disabled = verifying || secret.length === 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (disabled) return;
    typed.secret = '';
    onSubmit(secret);
  };

  return (
    <Dialog title="Enter Admin Secret" size="sm">
      <form onSubmit={submit} className="flex flex-col gap-3">
        <label htmlFor={inputId} className="text-sm font-medium">
          Admin Secret
        </label>
        <input
          id={inputId}
          type="password"
          autoFocus
          autoComplete="current-password"
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
          className="rounded border border-gray-300 px-3 py-2"
        />
        {state.status === 'locked' && state.error !== null && (
          <p role="alert" className="text-sm text-red-600">
            {state.error}
          </p>
        )}
        <Button type="submit" disabled={disabled}>
          {verifying ? 'Verifying...' : 'Continue'}
        </Button>
      </form>
    </Dialog>
  );
}
