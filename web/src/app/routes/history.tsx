/** The history screen (docs/product-rules.md, Results and history): a lazy route module, loaded on the first visit. */
import '../../styles/app.css';
import { useLoaderData, useRouteError, type LoaderFunctionArgs } from 'react-router';
import { forgetAccount } from '../../features/account/account-session';
import { HistoryList } from '../../features/history/history-list';
import { loadHistory } from '../../features/history/history-data';
import { HistoryHeading, HistoryShell } from '../../features/history/history-shell';
import { Notice } from '../../features/history/notice';
import { ProgressPanel } from '../../features/history/progress-panel';
import { useConfig } from '../../lib/config';
import { routeErrorSentence } from '../../lib/load-data';
import { ErrorPage } from '../error-page';

export function loader(args: LoaderFunctionArgs) {
  // An interview left for History spent a credit and may raise a level: the main screen logs in again on the way back.
  forgetAccount();
  return loadHistory(args);
}

export function Component() {
  const { config } = useConfig();
  const data = useLoaderData<typeof loader>();
  if (data.email === null)
    return (
      <HistoryShell config={config} loggedIn={false}>
        <Notice level={1} title="Please Log In" text="Please log in to view your history" link={{ to: '/', label: 'Go to Home' }} />
      </HistoryShell>
    );
  const { totalCount } = data.history.pagination;
  return (
    <HistoryShell config={config} loggedIn>
      <HistoryHeading>
        <p className="text-sm text-slate-600" data-testid="history-total">
          {totalCount} {totalCount === 1 ? 'interview' : 'interviews'} in total
        </p>
      </HistoryHeading>
      {totalCount === 0 ? (
        <Notice
          title="No Interview History"
          text="Your feedback appears here after your first interview."
          link={{ to: '/', label: 'Start Your First Interview' }}
        />
      ) : (
        <>
          {data.progress && <ProgressPanel progress={data.progress} />}
          <h2 className="mt-8 text-lg font-semibold text-slate-900">Your interviews</h2>
          <HistoryList history={data.history} sets={data.sets} />
        </>
      )}
    </HistoryShell>
  );
}

/** A failed history call: its sentence under the page title ('Failed to fetch history: …'); anything else is the fallback screen. */
export function ErrorBoundary() {
  const { config } = useConfig();
  const sentence = routeErrorSentence(useRouteError());
  if (sentence === null) return <ErrorPage />;
  return (
    <HistoryShell config={config} loggedIn>
      <HistoryHeading />
      <p role="alert" className="mt-8 rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm font-medium text-rose-800">
        {sentence}
      </p>
    </HistoryShell>
  );
}
