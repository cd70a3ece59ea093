import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { QuestionSet, RatingItem, RatingsResponse } from '../../../../contract';
import { isShowablePage } from '../../../../domain/pagination';
import { useConfig } from '../../lib/config-context';
import { buttonClasses } from '../../components/button';
import { PulseDots } from '../../components/pulse-dots';
import { fetchQuestionSets, fetchRatings } from '../../lib/api';
import { readStored, USER_EMAIL_KEY } from '../../lib/storage';
import { SupportDialog } from '../../components/support-dialog';
import { TopBar } from '../../components/top-bar';
import { ResultsOverlay } from '../../components/results-overlay';
import { HistoryCard } from './history-card';
import { PaginationNav } from './pagination-nav';

export const HISTORY_NETWORK_ERROR = 'An error occurred while fetching your history.';

type Load = { status: 'loading' } | { status: 'ready'; data: RatingsResponse } | { status: 'error'; message: string };

/** docs/product-rules.md, Results and history. */
export default function HistoryPage() {
  const { config } = useConfig();
  const email = readStored(USER_EMAIL_KEY);
  const [params, setParams] = useSearchParams();
  const requested = Number(params.get('page') ?? '1');
  const page = Number.isInteger(requested) && requested >= 1 ? requested : 1;
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [sets, setSets] = useState<QuestionSet[]>([]);
  const [open, setOpen] = useState<RatingItem | null>(null);
  const [support, setSupport] = useState(false);

  useEffect(() => {
    if (!email) return;
    let live = true;
    setLoad({ status: 'loading' });
    void fetchRatings(email, page).then((result) => {
      if (!live) return;
      if (result.ok) setLoad({ status: 'ready', data: result.data });
      else if (result.kind === 'http') setLoad({ status: 'error', message: `Failed to fetch history: ${result.message}` });
      else {
        console.error('History request failed:', result.error);
        setLoad({ status: 'error', message: HISTORY_NETWORK_ERROR });
      }
    });
    return () => {
      live = false;
    };
  }, [email, page]);

  useEffect(() => {
    if (!email) return;
    void fetchQuestionSets(email).then((result) => {
      if (result.ok) setSets(result.data);
      else console.error('Could not load the question sets:', result.kind === 'http' ? result.message : result.error);
    });
  }, [email]);

  // A page outside 1..totalPages (an old link) is never shown: go to the last page instead.
  const totalPages = load.status === 'ready' ? load.data.pagination.totalPages : 0;
  useEffect(() => {
    if (totalPages > 0 && !isShowablePage(page, totalPages)) setParams({ page: String(totalPages) }, { replace: true });
  }, [page, totalPages, setParams]);

  const goTo = (next: number) => {
    if (load.status !== 'ready' || !isShowablePage(next, load.data.pagination.totalPages)) return;
    setParams(next === 1 ? {} : { page: String(next) });
    window.scrollTo({ top: 0 });
  };

  // The model answers of the set whose index equals questionSetIndex + 1 (docs/product-rules.md, Results and history).
  const modelAnswersFor = (rating: RatingItem) =>
    rating.questionSetIndex === null ? null : (sets.find((s) => s.index === (rating.questionSetIndex ?? -2) + 1)?.modelAnswers ?? null);

  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-slate-50 to-indigo-50/40">
      <TopBar productName={config.productName} loggedIn={email !== null} onSupport={() => setSupport(true)} />
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-8 sm:px-6">
        {!email ? (
          <Notice level={1} title="Please Log In" text="Please log in to view your history" link={{ to: '/', label: 'Go to Home' }} />
        ) : (
          <>
            <div className="flex flex-wrap items-end justify-between gap-2">
              <h1 className="text-2xl font-bold tracking-tight text-slate-900">Interview History (Experimental)</h1>
              {load.status === 'ready' && (
                <p className="text-sm text-slate-600" data-testid="history-total">
                  {load.data.pagination.totalCount} {load.data.pagination.totalCount === 1 ? 'interview' : 'interviews'} in total
                </p>
              )}
            </div>
            {load.status === 'loading' && (
              <div className="mt-12 flex justify-center">
                <PulseDots label="Loading your history" />
              </div>
            )}
            {load.status === 'error' && (
              <p role="alert" className="mt-8 rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm font-medium text-rose-800">
                {load.message}
              </p>
            )}
            {load.status === 'ready' && load.data.pagination.totalCount === 0 && (
              <Notice title="No Interview History" text="Your feedback appears here after your first interview." link={{ to: '/', label: 'Start Your First Interview' }} />
            )}
            {load.status === 'ready' && load.data.ratings.length > 0 && (
              <>
                <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                  {load.data.ratings.map((rating) => (
                    <li key={rating.id}>
                      <HistoryCard rating={rating} onOpen={() => setOpen(rating)} />
                    </li>
                  ))}
                </ul>
                <PaginationNav pagination={load.data.pagination} onPage={goTo} />
              </>
            )}
          </>
        )}
      </main>
      {open && (
        <ResultsOverlay
          rating={{ status: 'ready', markdown: open.ratingMarkdown ?? '*No rating available.*', score: open.score ?? 0 }}
          modelAnswers={modelAnswersFor(open)}
          dogImageApi={null}
          onContinue={() => window.location.reload()}
          onClose={() => setOpen(null)}
        />
      )}
      {support && <SupportDialog config={config} onClose={() => setSupport(false)} />}
    </div>
  );
}

interface NoticeProps {
  /** 1 when the notice is the whole page (logged out), 2 under the page title. */
  level?: 1 | 2;
  title: string;
  text: string;
  link: { to: string; label: string };
}

function Notice({ level = 2, title, text, link }: NoticeProps) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <section className="mx-auto mt-10 max-w-md rounded-3xl bg-white px-6 py-10 text-center shadow-sm ring-1 ring-slate-200">
      <Heading className="text-xl font-semibold text-slate-900">{title}</Heading>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
      <Link to={link.to} className={`${buttonClasses('primary')} mt-6`}>
        {link.label}
      </Link>
    </section>
  );
}
