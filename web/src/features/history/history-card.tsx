import type { RatingItem } from '../../../../contract';
import { formatDate, formatDuration, formatPercent } from '../../../../domain/format';
import { scoreColour, type ScoreColour } from '../../../../domain/score';

const scoreStyles: Record<ScoreColour, string> = {
  green: 'bg-green-100 text-green-900 ring-green-300',
  yellow: 'bg-yellow-100 text-yellow-900 ring-yellow-300',
  red: 'bg-red-100 text-red-900 ring-red-300',
};

/** docs/product-rules.md, Results and history: topic (or 'Untitled Interview'), score %, date, duration, question set number (index+1). */
export function HistoryCard({ rating, onOpen }: { rating: RatingItem; onOpen: () => void }) {
  // Colour the number the card shows, so 79.6 (shown as 80%) is green like 80.
  const colour = rating.score === null ? null : scoreColour(Math.round(rating.score));
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="history-card"
      className="flex h-full w-full flex-col rounded-2xl border border-slate-200 bg-white p-5 text-left shadow-sm transition hover:-translate-y-0.5 hover:border-indigo-300 hover:shadow-md focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60"
    >
      <span className="flex items-start justify-between gap-3">
        <span className="min-w-0 text-base font-semibold text-slate-900">{rating.topic || 'Untitled Interview'}</span>
        {colour && rating.score !== null && (
          <span
            data-testid="history-score"
            data-colour={colour}
            className={`shrink-0 rounded-full px-2.5 py-0.5 text-sm font-bold ring-1 ${scoreStyles[colour]}`}
          >
            {formatPercent(rating.score)}
          </span>
        )}
      </span>
      <dl className="mt-4 grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
        <div>
          <dt className="text-xs text-slate-600">Date</dt>
          <dd className="font-medium text-slate-800">{formatDate(rating.eventTimestamp)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Duration</dt>
          <dd className="font-medium text-slate-800">{formatDuration(rating.durationSeconds)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Question set</dt>
          <dd className="font-medium text-slate-800">{rating.questionSetIndex === null ? '—' : `#${rating.questionSetIndex + 1}`}</dd>
        </div>
      </dl>
    </button>
  );
}
