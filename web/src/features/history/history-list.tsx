import { Suspense, useState } from 'react';
import { Await, useNavigation, useSearchParams } from 'react-router';
import type { QuestionSet, RatingItem, RatingsResponse } from '../../../../contract';
import { isShowablePage } from '../../../../domain/pagination';
import { PulseDots } from '../../components/pulse-dots';
import { ResultsOverlay } from '../../components/results-overlay';
import { HistoryCard } from './history-card';
import { modelAnswersFor } from './history-data';
import { PaginationNav } from './pagination-nav';

/** One page of ratings as cards, the pages below, and a card's results overlay (docs/product-rules.md, Results and history). */
export function HistoryList({ history, sets }: { history: RatingsResponse; sets: Promise<QuestionSet[]> }) {
  const [, setParams] = useSearchParams();
  const [open, setOpen] = useState<RatingItem | null>(null);
  // Pending UI: the page being left stays, dimmed, until the next one has loaded.
  const loading = useNavigation().state === 'loading';

  const goTo = (next: number) => {
    if (!isShowablePage(next, history.pagination.totalPages)) return;
    setParams(next === 1 ? {} : { page: String(next) });
    window.scrollTo({ top: 0 });
  };

  return (
    <div aria-busy={loading} className={loading ? 'opacity-60' : undefined}>
      {loading && (
        <div className="mt-6 flex justify-center">
          <PulseDots label="Loading your history" />
        </div>
      )}
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {history.ratings.map((rating) => (
          <li key={rating.id}>
            <HistoryCard rating={rating} onOpen={() => setOpen(rating)} />
          </li>
        ))}
      </ul>
      <PaginationNav pagination={history.pagination} onPage={goTo} />
      {open && (
        <Suspense fallback={null}>
          <Await resolve={sets}>
            {(resolved: QuestionSet[]) => (
              <ResultsOverlay
                rating={{ status: 'ready', markdown: open.ratingMarkdown ?? '*No rating available.*', score: open.score ?? 0 }}
                modelAnswers={modelAnswersFor(open, resolved)}
                dogImageApi={null}
                onContinue={() => window.location.reload()}
                onClose={() => setOpen(null)}
              />
            )}
          </Await>
        </Suspense>
      )}
    </div>
  );
}
