/** The main screen's session, a lazy chunk: the session controller through features/interview's useSession, and what only a session shows. */
import '../../../styles/app.css';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLoaderData } from 'react-router';
import type { QuestionSet } from '../../../../../contract';
import { tileState } from '../../../../../domain/tiles';
import type { AccountData } from '../../../features/account/account-session';
import { forgetSet, rememberedSetId } from '../../../lib/selected-set';
import { answersWillBeTyped, TYPED_ANSWERS_NOTICE } from '../../../lib/speech-support';
import { CreditsLine } from '../../../features/account/credits-line';
import { ResultsOverlay } from '../../../components/results-overlay';
import { LiveSessionChoice } from '../../../features/interview/live-session-choice';
import { DoneAnswering } from '../../../features/interview/done-answering';
import { LiveStatus } from '../../../features/interview/live-status';
import { Conversation } from '../../../features/interview/conversation';
import { ReconnectChoice } from '../../../features/interview/reconnect-choice';
import { runningControls } from '../../../features/interview/running-controls';
import { TypedAnswer } from '../../../features/interview/typed-answer';
import { useSession, type UseSessionOptions } from '../../../features/interview/use-session';
import type { SessionView } from './session-view';

export interface SessionHostProps {
  options: UseSessionOptions;
  selected: QuestionSet | null;
  dogImageApi: string | null;
  /** The topic chosen before a reload (or by History's "practise next"), restored once if the tile still allows it. */
  onRestore: (set: QuestionSet) => void;
  /** Start was pressed before this chunk had loaded: start once it is here. */
  startRequested: boolean;
  onStartTaken: () => void;
  children: (view: SessionView) => ReactNode;
}

export default function SessionHost({
  options,
  selected,
  onRestore,
  dogImageApi,
  startRequested,
  onStartTaken,
  children,
}: SessionHostProps) {
  const session = useSession(options);
  // The main route's data: the signed-in candidate's interviews left, shown above the start button while idle (docs/product-rules.md, Credits).
  const { account } = useLoaderData() as AccountData;
  const credits = account?.profile.credits;
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || !account) return;
    restored.current = true;
    const id = rememberedSetId();
    const set = account.sets.find((s) => s.id === id);
    if (!selected && set && tileState(set, account.profile).action === 'select') onRestore(set);
  });
  const { phase, interviewerMessages, speaking, interim, notice, acceptsTypedAnswers, rating, startError } = session.snapshot;
  const taken = useRef(false);
  useEffect(() => {
    if (!startRequested || taken.current) return;
    taken.current = true;
    onStartTaken();
    session.start(selected);
  });

  const active = phase === 'active';
  return children({
    phase,
    startError,
    start: () => session.start(selected),
    status: active ? <LiveStatus speaking={speaking} /> : null,
    running: runningControls(
      phase,
      session.stop,
      session.snapshot.reconnect && (
        <ReconnectChoice view={session.snapshot.reconnect} onReconnect={session.reconnect} onStop={session.stop} />
      ),
    ),
    messages: interviewerMessages.length > 0 ? <Conversation transcript={session.snapshot.transcript} /> : null,
    footer:
      phase === 'idle' ? (
        <>
          {/* Said before a credit is spent (docs/product-rules.md, Session lifecycle). */}
          {answersWillBeTyped(options.voiceMode) && (
            <p className="text-center text-sm text-amber-950" data-testid="typed-answers-notice">
              {TYPED_ANSWERS_NOTICE}
            </p>
          )}
          {credits && <CreditsLine credits={credits} />}
        </>
      ) : (
        active && (
          <>
            {notice && (
              <p className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200" data-testid="session-notice">
                {notice}
              </p>
            )}
            {interim && (
              <div className="flex items-center justify-between gap-3">
                <p className="text-sm text-slate-600 italic" aria-live="polite" data-testid="interim-text">
                  {interim}
                </p>
                <DoneAnswering onDone={session.endAnswer} />
              </div>
            )}
            {acceptsTypedAnswers && <TypedAnswer onSend={session.sendText} initial={session.draft()} onDraft={session.saveDraft} />}
          </>
        )
      ),
    overlay: rating ? (
      <ResultsOverlay
        rating={rating}
        modelAnswers={selected?.modelAnswers ?? null}
        dogImageApi={dogImageApi}
        transcript={session.snapshot.transcript}
        onContinue={() => {
          // The interview on this topic is done: after the reload the list offers the next one.
          forgetSet();
          window.location.reload();
        }}
      />
    ) : (
      session.live && <LiveSessionChoice live={session.live} onContinue={session.continueLive} onEnd={session.endLive} />
    ),
  });
}
