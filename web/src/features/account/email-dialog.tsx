import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { EMAIL_PATTERN } from '../../../../contract/limits';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';

export const INVALID_EMAIL = 'Please enter a valid email address, like you@example.com.';

export interface EmailDialogProps {
  initialEmail?: string;
  error: string | null;
  busy: boolean;
  /** Shown above the form: the out-of-tokens notice after the token call answered 402 (out-of-tokens-notice.tsx). */
  notice?: ReactNode;
  onSubmit: (email: string) => void;
  /** Only when someone is logged in; a visitor must enter an email (docs/product-rules.md, Login and identity). */
  onClose?: () => void;
}

/**
 * docs/product-rules.md, Login and identity: 'Enter your email to continue'; Continue only for a
 * valid email, trimmed of surrounding spaces as the server trims it (phone keyboards add one); Enter submits.
 */
export function EmailDialog({ initialEmail = '', error, busy, notice, onSubmit, onClose }: EmailDialogProps) {
  const [email, setEmail] = useState(initialEmail);
  const inputId = useId();
  const trimmed = email.trim();
  // The pattern allows no space inside the address.
  const valid = EMAIL_PATTERN.test(trimmed);
  // Once the field was left, an address that cannot work says why (not only a grey Continue).
  const [left, setLeft] = useState(false);
  const invalid = left && !!trimmed && !valid;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    onSubmit(trimmed);
  };

  return (
    <Dialog title="Enter your email to continue" onClose={onClose} size="sm" testId="email-dialog">
      <form onSubmit={submit} noValidate className="space-y-4">
        {notice}
        <p className="text-sm text-slate-600">We use your email to keep your progress and feedback. No password needed.</p>
        <div>
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
            Email
          </label>
          <input
            id={inputId}
            data-autofocus
            // text, not email: the trimming is ours (as the server's), and an address with a space inside stays refused.
            type="text"
            inputMode="email"
            spellCheck={false}
            autoCapitalize="none"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            onBlur={() => setLeft(true)}
            placeholder="you@example.com"
            aria-invalid={!!trimmed && !valid}
            aria-describedby={[invalid && `${inputId}-invalid`, error && `${inputId}-error`].filter(Boolean).join(' ') || undefined}
            className="mt-1.5 block w-full rounded-xl border border-slate-300 px-3.5 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-indigo-600 focus:outline-none focus:ring-4 focus:ring-indigo-200"
          />
          {invalid && (
            <p id={`${inputId}-invalid`} className="mt-1.5 text-sm font-medium text-rose-700">
              {INVALID_EMAIL}
            </p>
          )}
        </div>
        {error && (
          <p id={`${inputId}-error`} role="alert" className="text-sm font-medium text-rose-700">
            {error}
          </p>
        )}
        <Button type="submit" disabled={!valid || busy} className="w-full">
          Continue
        </Button>
      </form>
    </Dialog>
  );
}
