import { Button } from './button';
import { Dialog } from './dialog';
import { lazy, Suspense, useEffect } from 'react';
import { Markdown, preloadMarkdown } from './lazy-markdown';
import { PulseDots } from './pulse-dots';
import { TranscriptView, type TranscriptSource } from './transcript-view';

// Its own chunk: it checks a third-party answer with zod, which the first screen does without.
const DogPicture = lazy(() => import('./dog-picture').then((m) => ({ default: m.DogPicture })));

/** What the overlay shows: the rating on its way, the rating, or why it failed. */
export type RatingView =
  | { status: 'loading' }
  /** `levelNotice`: the interview did not complete its level, and what is missing (domain/level-completion.ts). */
  | { status: 'ready'; markdown: string; score: number; levelNotice?: string | null }
  | { status: 'error'; message: string };

export const TEA_TEXT = "go grab a cup of tea, we're brewing your results. it should be ready in 1 to 2 minutes";

export interface ResultsOverlayProps {
  rating: RatingView;
  modelAnswers: string | null;
  dogImageApi: string | null;
  /** The whole interview, both sides, offered with the feedback (or the call that loads it). */
  transcript?: TranscriptSource;
  /** The Continue button (docs/product-rules.md, Results and history: it reloads the page). */
  onContinue: () => void;
  /** Escape, the backdrop and the × button; defaults to onContinue. */
  onClose?: () => void;
}

/** docs/product-rules.md, Results and history: 'Session Feedback' — the tea text, a dog and pulse dots while loading; then the Markdown. */
export function ResultsOverlay({ rating, modelAnswers, dogImageApi, transcript, onContinue, onClose = onContinue }: ResultsOverlayProps) {
  const loading = rating.status === 'loading';
  useEffect(preloadMarkdown, []);
  return (
    <Dialog title="Session Feedback" onClose={loading ? undefined : onClose} size="lg" testId="results-overlay">
      {loading ? (
        <div className="flex flex-col items-center gap-5 py-4 text-center" aria-busy="true">
          <p className="max-w-md text-base text-slate-700">{TEA_TEXT}</p>
          <Suspense fallback={null}>
            <DogPicture api={dogImageApi} />
          </Suspense>
          <PulseDots label="Rating your answers" />
        </div>
      ) : (
        <div className="space-y-5">
          {rating.status === 'ready' && rating.levelNotice && (
            <p className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="level-notice">
              {rating.levelNotice}
            </p>
          )}
          {rating.status === 'ready' ? (
            <Markdown>{rating.markdown}</Markdown>
          ) : (
            <p role="alert" className="rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-sm font-medium text-rose-800">
              {rating.message}
            </p>
          )}
          {rating.status === 'ready' && modelAnswers && (
            <details className="group rounded-2xl border border-slate-200 bg-slate-50">
              <summary className="cursor-pointer list-none rounded-2xl px-4 py-3 font-semibold text-slate-900 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60">
                <span aria-hidden="true" className="mr-2 inline-block transition group-open:rotate-90">
                  ▸
                </span>
                <span>Model Answers</span>
              </summary>
              <div className="border-t border-slate-200 px-4 py-3">
                <Markdown>{modelAnswers}</Markdown>
              </div>
            </details>
          )}
          {transcript && (
            <Suspense fallback={null}>
              <TranscriptView source={transcript} />
            </Suspense>
          )}
          <div className="flex justify-end">
            <Button onClick={onContinue} data-autofocus>
              Continue
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
