/**
 * SIGNIN=link: the page a sign-in link opens, `/signin#<token>` (docs/product-rules.md, Sign-in
 * links). It spends the token (POST /user/signin, which sets the session cookie) and lands on the
 * main screen; a used or expired link says so and offers a new one. A lazy route module.
 */
import '../../styles/app.css';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { buttonClasses } from '../../components/button';
import { forgetAccount } from '../../features/account/account-session';
import { openSigninLink } from '../../features/account/signin-api';
import { USER_EMAIL_KEY, writeStored } from '../../lib/storage';

export function Component() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = window.location.hash.replace(/^#/, '');
    // The token leaves the address at once: it is not kept in the history.
    window.history.replaceState(null, '', '/signin');
    void openSigninLink(token).then((result) => {
      if (!result.ok) {
        setError(result.error);
        return;
      }
      writeStored(USER_EMAIL_KEY, result.data.email);
      forgetAccount();
      void navigate('/', { replace: true });
    });
  }, [navigate]);

  return (
    <main className="mx-auto max-w-md space-y-4 px-4 py-16 text-center">
      {error ? (
        <>
          <h1 className="text-xl font-bold text-slate-900">This link does not work</h1>
          <p role="alert" className="text-slate-700">
            {error}
          </p>
          <Link to="/" className={buttonClasses()}>
            Send a new link
          </Link>
        </>
      ) : (
        <p className="text-slate-600">Signing you in…</p>
      )}
    </main>
  );
}
