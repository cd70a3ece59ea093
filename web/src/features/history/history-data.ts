/** The history screen's data (docs/product-rules.md, Results and history; Pagination), read by the route's loader. */
import { replace, type LoaderFunctionArgs } from 'react-router';
import type { ProgressResponse, QuestionSet, RatingItem, RatingsResponse } from '../../../../contract';
import { isShowablePage } from '../../../../domain/pagination';
import { fetchQuestionSets } from '../../lib/api';
import { fetchProgress, fetchRatings } from '../../lib/session-api';
import { dataOr, loadData, type FailureTexts } from '../../lib/load-data';
import { readStored, USER_EMAIL_KEY } from '../../lib/storage';

export const HISTORY_NETWORK_ERROR = 'An error occurred while fetching your history.';

const HISTORY_TEXTS: FailureTexts = {
  http: (message) => `Failed to fetch history: ${message}`,
  network: HISTORY_NETWORK_ERROR,
  log: 'History request failed:',
};

export type HistoryData =
  | { email: null }
  | {
      email: string;
      history: RatingsResponse;
      /** Only the results overlay needs the sets (for model answers): the page does not wait for them. */
      sets: Promise<QuestionSet[]>;
      /**
       * The progress panel (charts, missed key points, practise next); null when it could not be
       * loaded. It is loaded with the cards: it stands above them, and arriving later it pushed them
       * down under the candidate's click (bench/results.md, History's layout shift).
       */
      progress: ProgressResponse | null;
    };

/** `?page=N` (1 when missing or not a whole number from 1). */
export function requestedPage(url: URL): number {
  const requested = Number(url.searchParams.get('page') ?? '1');
  return Number.isInteger(requested) && requested >= 1 ? requested : 1;
}

/** The page of ratings the URL asks for; a page outside 1..totalPages (an old link) goes to the last page instead. */
export async function loadHistory({ request }: LoaderFunctionArgs): Promise<HistoryData> {
  const email = readStored(USER_EMAIL_KEY);
  if (!email) return { email: null };
  const url = new URL(request.url);
  const page = requestedPage(url);
  const sets = dataOr(fetchQuestionSets(email), [], 'Could not load the question sets:');
  const progress = dataOr<ProgressResponse | null>(fetchProgress(email), null, 'Could not load your progress:');
  const [history, loadedProgress] = await Promise.all([loadData(fetchRatings(email, page), HISTORY_TEXTS), progress]);
  const { totalPages } = history.pagination;
  if (totalPages > 0 && !isShowablePage(page, totalPages)) throw replace(`${url.pathname}?page=${totalPages}`);
  return { email, history, sets, progress: loadedProgress };
}

/** The model answers of the set whose index equals questionSetIndex + 1 (docs/product-rules.md, Results and history). */
export function modelAnswersFor(rating: RatingItem, sets: QuestionSet[]): string | null {
  if (rating.questionSetIndex === null) return null;
  const index = rating.questionSetIndex + 1;
  return sets.find((s) => s.index === index)?.modelAnswers ?? null;
}
