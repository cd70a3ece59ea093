import { useState, type ReactNode } from 'react';
import type { PublicConfig } from '../../../../contract';
import { SupportDialog } from '../../components/support-dialog';
import { TopBar } from '../../components/top-bar';

/** The history screen's frame: the top bar (with its support dialog) around the page's content. */
export function HistoryShell({ config, loggedIn, children }: { config: PublicConfig; loggedIn: boolean; children: ReactNode }) {
  const [support, setSupport] = useState(false);
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-slate-50 to-indigo-50/40">
      <TopBar config={config} loggedIn={loggedIn} onSupport={() => setSupport(true)} />
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-8 sm:px-6">{children}</main>
      {support && <SupportDialog config={config} onClose={() => setSupport(false)} />}
    </div>
  );
}

export function HistoryHeading({ children }: { children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-2">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Interview History (Experimental)</h1>
      {children}
    </div>
  );
}
