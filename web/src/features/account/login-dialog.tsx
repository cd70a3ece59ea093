import { useEffect, useRef, type ReactNode } from 'react';
import { useFetcher } from 'react-router';
import type { LoginOutcome } from './account-session';
import { EmailDialog } from './email-dialog';

export interface LoginDialogProps {
  initialEmail: string;
  /** Why the stored email could not log in (the route's loader), shown until the form is sent. */
  loaderError: string | null;
  /** What the dialog says first (EmailDialog's `notice`). */
  notice?: ReactNode;
  onLoggedIn: (isNewUser: boolean) => void;
  onClose?: () => void;
}

/**
 * The email dialog sent as the route's `login` action through a fetcher (docs/product-rules.md,
 * Login and identity): Continue is disabled while it is on its way; the action's sentence shows on failure.
 */
export function LoginDialog({ initialEmail, loaderError, notice, onLoggedIn, onClose }: LoginDialogProps) {
  const fetcher = useFetcher<LoginOutcome>();
  const handled = useRef<LoginOutcome | undefined>(undefined);
  const idle = fetcher.state === 'idle';
  const outcome = idle ? fetcher.data : undefined;

  useEffect(() => {
    if (!outcome?.ok || handled.current === outcome) return;
    handled.current = outcome;
    onLoggedIn(outcome.isNewUser);
  });

  const error = !idle ? null : outcome ? (outcome.ok ? null : outcome.error) : loaderError;
  return (
    <EmailDialog
      initialEmail={initialEmail}
      error={error}
      busy={!idle}
      notice={notice}
      onSubmit={(email) => void fetcher.submit({ intent: 'login', email }, { method: 'post' })}
      onClose={onClose}
    />
  );
}
