import { useEffect, useRef, useState } from 'react';
import type { QuestionSet } from '../../../../contract';
import { tileState, type TileUser } from '../../../../domain/tiles';
import { useConfig } from '../../lib/config';
import { Button } from '../../components/button';
import { ChatIcon } from '../../components/icons';
import { sendFeedback } from '../../lib/api';
import { readStored, USER_EMAIL_KEY } from '../../lib/storage';
import { useAccount } from '../../features/account/use-account';
import { EmailDialog } from '../../features/account/email-dialog';
import { FeedbackDialog } from '../../features/topics/feedback-dialog';
import { QuestionsDialog } from '../../features/topics/questions-dialog';
import { SupportDialog } from '../../components/support-dialog';
import { UpgradeDialog } from '../../features/topics/upgrade-dialog';
import { WelcomeDialog } from '../../features/account/welcome-dialog';
import { TopBar } from '../../components/top-bar';
import { ResultsOverlay } from '../../components/results-overlay';
import { MessageCards } from '../../features/interview/message-cards';
import { SessionControls } from '../../features/interview/session-controls';
import { StartError } from '../../features/interview/start-error';
import { connectionStatus, StatusIndicator } from '../../features/interview/status-indicator';
import { TypedAnswer } from '../../features/interview/typed-answer';
import { useSession } from '../../features/interview/use-session';

type DialogName = 'email' | 'welcome' | 'questions' | 'upgrade' | 'feedback' | 'support';

export const FEEDBACK_NETWORK_ERROR = 'An error occurred while sending your feedback.';

/** docs/product-rules.md, Screens and routes: top bar, the session body, the bottom bar and the dialogs the features own. */
export function MainPage() {
  const { config } = useConfig();
  const account = useAccount();
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const [outOfTokens, setOutOfTokens] = useState(false);
  const [selected, setSelected] = useState<QuestionSet | null>(null);
  const [feedbackSet, setFeedbackSet] = useState<QuestionSet | null>(null);
  const session = useSession({
    email: account.email,
    voiceMode: config.voiceMode,
    onNeedTopic: () => setDialog('questions'),
    onOutOfTokens: () => {
      setOutOfTokens(true);
      setDialog('email');
    },
  });
  const { phase, interviewerMessages, speaking, interim, notice, acceptsTypedAnswers, rating, startError } = session.snapshot;

  const logIn = async (email: string) => {
    const outcome = await account.login(email);
    if (!outcome) {
      setDialog('email');
      return;
    }
    setOutOfTokens(false);
    setDialog(outcome.isNewUser ? 'welcome' : 'questions');
  };

  // docs/product-rules.md, Login and identity: a stored email logs in by itself; otherwise the email dialog opens.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const stored = readStored(USER_EMAIL_KEY);
    if (stored) void logIn(stored);
    else setDialog('email');
  }, []);

  const tileUser: TileUser = account.profile ?? { subscription: null, topicLevels: {}, topicFeedback: {} };

  const onTile = (set: QuestionSet) => {
    const state = tileState(set, tileUser);
    if (state.action === 'upgrade') setDialog('upgrade');
    else if (state.action === 'feedback') {
      setFeedbackSet(set);
      setDialog('feedback');
    } else if (state.action === 'select') {
      setSelected(set);
      setDialog(null);
    }
  };

  const submitFeedback = async (text: string, topic: string, questionIndex: number): Promise<string | null> => {
    if (!account.email) return 'Missing feedback submission information';
    const result = await sendFeedback(account.email, { feedback: text, topic, questionIndex });
    if (!result.ok && result.kind === 'http') return `Failed to send feedback: ${result.message}`;
    if (!result.ok && result.kind === 'network') {
      console.error('Feedback was not sent:', result.error);
      return FEEDBACK_NETWORK_ERROR;
    }
    account.markFeedbackGiven(topic);
    const match = feedbackSet?.name === topic ? feedbackSet : account.sets.find((s) => s.name === topic);
    if (match) setSelected(match);
    setFeedbackSet(null);
    setDialog(null);
    return null;
  };

  const loggedIn = account.profile !== null;
  const sessionBusy = phase === 'starting' || phase === 'active' || phase === 'interrupted' || phase === 'rating';
  const status = connectionStatus(phase, speaking);

  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-slate-50 to-indigo-50/40">
      <TopBar productName={config.productName} loggedIn={loggedIn} onSupport={() => setDialog('support')} />

      <main className="mx-auto flex w-full max-w-3xl flex-1 flex-col px-4 pt-6 pb-44 sm:px-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="min-w-0">
            <p className="text-xs font-semibold tracking-wide text-indigo-700 uppercase">{selected ? 'Selected topic' : 'Your session'}</p>
            <h1 className="truncate text-2xl font-bold tracking-tight text-slate-900" data-testid="topic-heading">
              {selected ? selected.name : 'Previous Messages'}
            </h1>
          </div>
          <StatusIndicator status={status} />
        </div>
        {loggedIn && (
          <div className="mt-3">
            <Button variant="secondary" onClick={() => setDialog('questions')} disabled={sessionBusy}>
              {selected ? 'Change topic' : 'Choose a topic'}
            </Button>
          </div>
        )}

        <section aria-label="Session messages" className="mt-8 flex-1">
          {interviewerMessages.length > 0 ? (
            <MessageCards messages={interviewerMessages} />
          ) : (
            <div className="flex flex-col items-center rounded-3xl border border-dashed border-slate-300 bg-white/70 px-6 py-12 text-center">
              <span className="text-indigo-400">
                <ChatIcon />
              </span>
              <p className="mt-3 text-base text-slate-700">Messages from your session will appear here.</p>
              <Button variant="secondary" className="mt-5" onClick={() => setDialog('welcome')}>
                How does it work?
              </Button>
            </div>
          )}
        </section>
      </main>

      <footer className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex max-w-3xl flex-col gap-3 px-4 py-3 sm:px-6">
          {phase === 'active' && notice && (
            <p className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200" data-testid="session-notice">
              {notice}
            </p>
          )}
          {phase === 'active' && interim && (
            <p className="text-sm text-slate-600 italic" aria-live="polite" data-testid="interim-text">
              {interim}
            </p>
          )}
          {phase === 'active' && acceptsTypedAnswers && <TypedAnswer onSend={session.sendText} />}
          <div className="flex justify-center">
            <SessionControls
              phase={phase}
              onStart={() => session.start(selected)}
              onStop={session.stop}
              reconnect={session.snapshot.reconnect}
              onReconnect={session.reconnect}
            />
          </div>
          <StartError text={phase === 'idle' ? startError : null} />
        </div>
      </footer>

      {rating && (
        <ResultsOverlay
          rating={rating}
          modelAnswers={selected?.modelAnswers ?? null}
          dogImageApi={config.dogImageApi}
          onContinue={() => window.location.reload()}
        />
      )}
      {dialog === 'email' && (
        <EmailDialog
          config={config}
          initialEmail={account.email ?? ''}
          error={account.error}
          busy={account.busy}
          outOfTokens={outOfTokens}
          onSubmit={(email) => void logIn(email)}
          onClose={loggedIn ? () => setDialog(null) : undefined}
        />
      )}
      {dialog === 'welcome' && <WelcomeDialog productName={config.productName} onClose={() => setDialog(null)} />}
      {dialog === 'questions' && (
        <QuestionsDialog sets={account.sets} user={tileUser} selectedId={selected?.id ?? null} onTile={onTile} onClose={() => setDialog(null)} />
      )}
      {dialog === 'upgrade' && <UpgradeDialog config={config} onClose={() => setDialog('questions')} />}
      {dialog === 'feedback' && (
        <FeedbackDialog
          topic={feedbackSet?.name ?? null}
          questionIndex={feedbackSet?.index ?? null}
          onSubmit={submitFeedback}
          onClose={() => setDialog('questions')}
        />
      )}
      {dialog === 'support' && <SupportDialog config={config} onClose={() => setDialog(null)} />}
    </div>
  );
}
