import { Link } from 'react-router';
import type { PublicConfig } from '../../../contract';
import { callApi } from '../lib/http';
import { removeStored, USER_EMAIL_KEY } from '../lib/storage';
import { HistoryIcon, SignOutIcon } from './icons';

export interface TopBarProps {
  config: PublicConfig;
  loggedIn: boolean;
  onSupport: () => void;
}

const pill =
  'inline-flex items-center gap-1.5 rounded-xl px-3 py-2 text-sm font-semibold transition focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60';

/** docs/product-rules.md, Screens and routes: logo, '{product} Feedback' linking home, history (only when logged in), 'Live Support'. */
/** Ends this browser's session, forgets the email and starts the app again signed out. */
async function signOutHere(): Promise<void> {
  await callApi<unknown>('/user/signout', { method: 'POST' });
  removeStored(USER_EMAIL_KEY);
  window.location.assign('/');
}

export function TopBar({ config, loggedIn, onSupport }: TopBarProps) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-2 px-3 sm:px-6">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2.5 rounded-lg focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60"
        >
          <img src="/logo.svg" alt="" width={32} height={32} className="size-8 shrink-0" />
          <span className="line-clamp-2 text-[15px] leading-tight font-bold tracking-tight text-slate-900 sm:text-lg">
            {config.productName} Feedback
          </span>
        </Link>
        <nav aria-label="Main" className="flex shrink-0 items-center gap-1.5">
          {loggedIn && (
            <Link to="/history" className={`${pill} text-slate-700 hover:bg-slate-100`}>
              <HistoryIcon />
              <span className="sr-only sm:not-sr-only">History</span>
            </Link>
          )}
          {/* SIGNIN=link only: with the email as identity there is nothing to sign out of (docs/product-rules.md, Sign-in links). */}
          {loggedIn && config.signin === 'link' && (
            <button type="button" onClick={() => void signOutHere()} className={`${pill} text-slate-700 hover:bg-slate-100`}>
              {/* On a phone an icon, like History, so the product name keeps its room. */}
              <SignOutIcon />
              <span className="sr-only sm:not-sr-only">Sign out</span>
            </button>
          )}
          <button type="button" onClick={onSupport} className={`${pill} bg-indigo-50 text-indigo-800 hover:bg-indigo-100`}>
            {/* The green dot says someone can be reached: only when the operator set a support link. */}
            {(config.supportChatUrl !== '' || config.supportContacts.length > 0) && (
              <span aria-hidden="true" className="size-2 rounded-full bg-emerald-500" />
            )}
            Live Support
          </button>
        </nav>
      </div>
    </header>
  );
}
