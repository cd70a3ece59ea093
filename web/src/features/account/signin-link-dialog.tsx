import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { EmailDialog } from './email-dialog';
import { askSigninLink } from './signin-api';

export interface SigninLinkDialogProps {
  initialEmail: string;
  /** Why the stored email could not log in (the route's loader), shown until the form is sent. */
  loaderError: string | null;
  /** What the dialog says first (EmailDialog's `notice`). */
  notice?: ReactNode;
  onClose?: () => void;
}

/**
 * SIGNIN=link (docs/product-rules.md, Sign-in links): the email dialog asks for a sign-in link,
 * then says "Check your email" with the address, the same whatever the email, and offers to send
 * again after the server's wait.
 */
export function SigninLinkDialog({ initialEmail, loaderError, notice, onClose }: SigninLinkDialogProps) {
  const [sent, setSent] = useState<{ email: string; resendAt: number } | null>(null);
  const [error, setError] = useState<string | null>(loaderError);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!sent) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [sent]);

  const send = async (email: string) => {
    setBusy(true);
    const result = await askSigninLink(email);
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setError(null);
    setNow(Date.now());
    setSent({ email: result.data.email, resendAt: Date.now() + result.data.resendAfterSeconds * 1000 });
  };

  if (!sent)
    return (
      <EmailDialog
        initialEmail={initialEmail}
        error={error}
        busy={busy}
        notice={notice}
        onSubmit={(email) => void send(email)}
        onClose={onClose}
      />
    );
  const wait = Math.max(0, Math.ceil((sent.resendAt - now) / 1000));
  return (
    <Dialog title="Check your email" onClose={onClose} size="sm" testId="check-email-dialog">
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          We sent a sign-in link to <strong className="font-semibold text-slate-900">{sent.email}</strong>. Open it in this browser to
          continue. It works once, for 15 minutes.
        </p>
        {error && (
          <p role="alert" className="text-sm font-medium text-rose-700">
            {error}
          </p>
        )}
        <Button type="button" disabled={wait > 0 || busy} onClick={() => void send(sent.email)} className="w-full">
          {wait > 0 ? `Send again in ${wait} s` : 'Send again'}
        </Button>
        <button type="button" onClick={() => setSent(null)} className="w-full text-sm font-medium text-indigo-700 hover:underline">
          Use another email
        </button>
      </div>
    </Dialog>
  );
}
