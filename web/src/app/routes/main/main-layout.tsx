import type { ReactNode } from 'react';
import type { PublicConfig, QuestionSet } from '../../../../../contract';
import { Button } from '../../../components/button';
import { ChatIcon } from '../../../components/icons';
import { TopBar } from '../../../components/top-bar';
import { SessionControls } from '../../../features/interview/session-controls';
import { StartError } from '../../../features/interview/start-error';
import { StatusIndicator } from '../../../features/interview/status-indicator';
import type { SessionView } from './session-view';

export interface MainLayoutProps {
  config: PublicConfig;
  loggedIn: boolean;
  selected: QuestionSet | null;
  /** Under the selected topic's name: which level of the topic it is and the candidate's own (rendered by a lazy chunk). */
  level: ReactNode;
  session: SessionView;
  onDialog: (name: 'topics' | 'welcome' | 'support') => void;
}

/** docs/product-rules.md, Screens and routes: the top bar, the session body and the bottom bar with the session controls. */
export function MainLayout({ config, loggedIn, selected, level, session, onDialog }: MainLayoutProps) {
  const { phase } = session;
  const busy = phase === 'starting' || phase === 'active' || phase === 'interrupted' || phase === 'rating';
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-slate-50 to-indigo-50/40">
      <TopBar config={config} loggedIn={loggedIn} onSupport={() => onDialog('support')} />
      <main className="mx-auto flex w-full max-w-3xl flex-1 flex-col px-4 pt-6 pb-44 sm:px-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="min-w-0">
            <p className="text-xs font-semibold tracking-wide text-indigo-700 uppercase">{selected ? 'Selected topic' : 'Your session'}</p>
            <h1 className="truncate text-2xl font-bold tracking-tight text-slate-900" data-testid="topic-heading">
              {selected ? selected.name : 'Previous Messages'}
            </h1>
            {selected && level}
          </div>
          {session.status ?? <StatusIndicator />}
        </div>
        {loggedIn && (
          <div className="mt-3">
            <Button variant="secondary" onClick={() => onDialog('topics')} disabled={busy}>
              {selected ? 'Change topic' : 'Choose a topic'}
            </Button>
          </div>
        )}
        <section aria-label="Session messages" className="mt-8 flex-1">
          {session.messages ?? <EmptyMessages onHowItWorks={() => onDialog('welcome')} />}
        </section>
      </main>
      <footer data-bottom-panel className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex max-w-3xl flex-col gap-3 px-4 py-3 sm:px-6">
          {session.footer}
          <div className="flex justify-center">
            <SessionControls starting={phase === 'starting'} onStart={session.start} running={session.running} />
          </div>
          <StartError text={phase === 'idle' ? session.startError : null} />
        </div>
      </footer>
      {session.overlay}
    </div>
  );
}

function EmptyMessages({ onHowItWorks }: { onHowItWorks: () => void }) {
  return (
    <div className="flex flex-col items-center rounded-3xl border border-dashed border-slate-300 bg-white/70 px-6 py-12 text-center">
      <span className="text-indigo-400">
        <ChatIcon />
      </span>
      <p className="mt-3 text-base text-slate-700">Messages from your session will appear here.</p>
      <Button variant="secondary" className="mt-5" onClick={onHowItWorks}>
        How does it work?
      </Button>
    </div>
  );
}
