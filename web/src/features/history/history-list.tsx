import { Suspense, useState } from 'react';
import { Await, useNavigation, useSearchParams } from 'react-router';
import type { QuestionSet, RatingItem, RatingsResponse, TranscriptEntry } from '../../../../contract';
import { isShowablePage } from '../../../../domain/pagination';
import { PulseDots } from '../../components/pulse-dots';
import { ResultsOverlay } from '../../components/results-overlay';
import { fetchRatingTranscript } from '../../lib/session-api';
import { readStored, USER_EMAIL_KEY } from '../../lib/storage';
import { HistoryCard } from './history-card';
import { modelAnswersFor } from './history-data';
import { PaginationNav } from './pagination-nav';

export const TRANSCRIPT_FAILED = 'The transcript could not be loaded. Please try again later.';

/** A card's whole transcript, fetched when the card is opened. */
async function loadTranscript(id: number): Promise<TranscriptEntry[] | string> {
  const email = readStored(USER_EMAIL_KEY);
  if (!email) return TRANSCRIPT_FAILED;
  const result = await fetchRatingTranscript(email, id);
  if (result.ok) return result.data.transcript;
  console.warn('The transcript could not be loaded:', result.kind === 'http' ? result.status : result.kind);
  return TRANSCRIPT_FAILED;
}

/** One page of ratings as cards, the pages below, and a card's results overlay (docs/product-rules.md, Results and history). */
export function HistoryList({ history, sets }: { history: RatingsResponse; sets: Promise<QuestionSet[]> }) {
  const [, setParams] = useSearchParams();
  const [open, setOpen] = useState<{ rating: RatingItem; transcript: Promise<TranscriptEntry[] | string> } | null>(null);
  const openCard = (rating: RatingItem) => setOpen({ rating, transcript: loadTranscript(rating.id) });
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
            <HistoryCard rating={rating} onOpen={() => openCard(rating)} />
          </li>
        ))}
      </ul>
      <PaginationNav pagination={history.pagination} onPage={goTo} />
      {open && (
        <Suspense fallback={null}>
          <Await resolve={sets}>
            {(resolved: QuestionSet[]) => (
              <ResultsOverlay
                rating={{
                  status: 'ready',
                  markdown: open.rating.ratingMarkdown ?? '*No rating available.*',
                  score: open.rating.score ?? 0,
                }}
                modelAnswers={modelAnswersFor(open.rating, resolved)}
                dogImageApi={null}
                transcript={open.transcript}
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
