/** The main screen (docs/product-rules.md, Screens and routes): its loader, its action and the page that composes the features. */
import { Suspense, useEffect, useState } from 'react';
import { useLoaderData, type ActionFunctionArgs } from 'react-router';
import type { QuestionSet } from '../../../../contract';
import { currentEmail, firstDialogAfterLogin, loadAccount, loginAction, markFeedbackGiven } from '../../features/account/account-session';
import type { UseSessionOptions } from '../../features/interview/use-session';
import { useConfig } from '../../lib/config';
import { errorResponse } from '../../lib/load-data';
import { preloadAfterFirstPaint, SessionHost, TopicLevelLine } from './main/lazy-parts';
import { MainDialogs, type DialogName } from './main/main-dialogs';
import { MainLayout } from './main/main-layout';
import { idleView, type SessionView } from './main/session-view';

/** Who is logged in: a stored email logs in by itself (features/account). */
export const loader = loadAccount;

/** The forms of the screen, sent through fetchers: the email dialog (`login`) and the topic feedback (`feedback`). */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'login') return loginAction(form);
  if (intent === 'feedback') {
    // The feedback dialog's chunk holds its action too: the first screen does without both.
    const { feedbackAction } = await import('./main/later-dialogs');
    const outcome = await feedbackAction(form, currentEmail());
    if (outcome.ok) markFeedbackGiven(outcome.topic);
    return outcome;
  }
  throw errorResponse('This form is not known here.', 400);
}

export function MainPage() {
  const { config } = useConfig();
  const data = useLoaderData<typeof loader>();
  const { account } = data;
  const [dialog, setDialog] = useState<DialogName | null>(() => (account ? firstDialogAfterLogin(account.profile.isNewUser) : 'email'));
  const [outOfTokens, setOutOfTokens] = useState(false);
  const [selected, setSelected] = useState<QuestionSet | null>(null);
  const [startRequested, setStartRequested] = useState(false);
  useEffect(preloadAfterFirstPaint, []);

  const options: UseSessionOptions = {
    email: account?.email ?? null,
    voiceMode: config.voiceMode,
    turnPauses: config.turnPauses,
    onNeedTopic: () => setDialog('topics'),
    onOutOfTokens: () => {
      setOutOfTokens(true);
      setDialog('email');
    },
    // An interview left open by an earlier page: its choice replaces the topic list, on its topic.
    onLiveSession: (live) => {
      setDialog(null);
      setSelected(account?.sets.find((set) => set.id === live.questionSetId) ?? null);
    },
  };
  const select = (set: QuestionSet) => {
    setSelected(set);
    setDialog(null);
  };
  // The topic header says which level of its topic the set is, and the candidate's own (docs/product-rules.md, Topic tiles).
  const level = account && selected && (
    <Suspense fallback={null}>
      <TopicLevelLine sets={account.sets} set={selected} topicLevels={account.profile.topicLevels} />
    </Suspense>
  );
  const layout = (session: SessionView) => (
    <MainLayout config={config} loggedIn={account !== null} selected={selected} level={level} session={session} onDialog={setDialog} />
  );

  return (
    <>
      <Suspense fallback={layout(idleView(startRequested, () => setStartRequested(true)))}>
        <SessionHost
          options={options}
          selected={selected}
          onRestore={select}
          dogImageApi={config.dogImageApi}
          startRequested={startRequested}
          onStartTaken={() => setStartRequested(false)}
        >
          {layout}
        </SessionHost>
      </Suspense>
      <MainDialogs
        dialog={dialog}
        config={config}
        data={data}
        selected={selected}
        outOfTokens={outOfTokens}
        onLoggedIn={(isNewUser) => {
          setOutOfTokens(false);
          setDialog(firstDialogAfterLogin(isNewUser));
        }}
        onSelect={select}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
