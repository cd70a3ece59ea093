import { useEffect, useId, useState, type FormEvent } from 'react';
import { useFetcher } from 'react-router';
import { FEEDBACK_MAX_LENGTH, FEEDBACK_MIN_LENGTH } from '../../../../contract/limits';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { useLatest } from '../../lib/use-latest';
import { FEEDBACK_MISSING_INFO, type FeedbackOutcome } from './feedback-action';

export const FEEDBACK_TOO_SHORT = `Feedback must be at least ${FEEDBACK_MIN_LENGTH} characters`;

export interface FeedbackDialogProps {
  topic: string | null;
  questionIndex: number | null;
  /** The route's `feedback` action answered that the feedback was sent. */
  onSent: () => void;
  onClose: () => void;
}

/**
 * docs/product-rules.md, Topic tiles: 'Share Your Feedback', 20..1000 characters with a counter,
 * sent as the route's `feedback` action through a fetcher (feedback-action.ts).
 */
export function FeedbackDialog({ topic, questionIndex, onSent, onClose }: FeedbackDialogProps) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fetcher = useFetcher<FeedbackOutcome>();
  const busy = fetcher.state !== 'idle';
  const id = useId();
  const trimmed = text.trim().length;
  const tooShort = trimmed < FEEDBACK_MIN_LENGTH;

  const outcome = busy ? undefined : fetcher.data;
  // The action's refusal shows until the candidate types again (which dismisses that answer).
  const [dismissed, setDismissed] = useState<FeedbackOutcome | undefined>(undefined);
  const refusal = outcome && !outcome.ok && outcome !== dismissed ? outcome.error : null;
  const sent = useLatest(onSent);
  useEffect(() => {
    if (outcome?.ok) sent.current();
  }, [outcome, sent]); // once per answer of the action

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!topic || questionIndex === null) setError(FEEDBACK_MISSING_INFO);
    else if (tooShort) setError(FEEDBACK_TOO_SHORT);
    else void fetcher.submit({ intent: 'feedback', feedback: text, topic, questionIndex }, { method: 'post' });
  };

  const shownError = error ?? refusal ?? (text.length > 0 && tooShort ? FEEDBACK_TOO_SHORT : null);
  return (
    <Dialog title="Share Your Feedback" onClose={onClose} testId="feedback-dialog">
      <form onSubmit={submit} className="space-y-3">
        <p className="text-sm text-slate-600">
          <span aria-hidden="true">💬 </span>Before you continue with{' '}
          {topic ? <strong className="text-slate-900">{topic}</strong> : 'this topic'}, tell us how the practice has been for you so far:
          what helped, what was confusing, what you would change.
        </p>
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          Your feedback
        </label>
        <textarea
          id={id}
          data-autofocus
          value={text}
          maxLength={FEEDBACK_MAX_LENGTH}
          rows={6}
          onChange={(event) => {
            setText(event.target.value);
            setError(null);
            setDismissed(outcome);
          }}
          aria-describedby={`${id}-count${shownError ? ` ${id}-error` : ''}`}
          className="block w-full resize-y rounded-xl border border-slate-300 px-3.5 py-2.5 text-base text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-none focus:ring-4 focus:ring-indigo-200"
        />
        <div id={`${id}-count`} className="flex justify-between text-xs font-medium text-slate-600" data-testid="feedback-counter">
          <span className={tooShort ? 'text-slate-600' : 'text-emerald-700'}>
            {trimmed}/{FEEDBACK_MIN_LENGTH} minimum
          </span>
          <span>
            {text.length}/{FEEDBACK_MAX_LENGTH}
          </span>
        </div>
        {shownError && (
          <p id={`${id}-error`} role="alert" className="text-sm font-medium text-rose-700">
            {shownError}
          </p>
        )}
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={tooShort || busy}>
            {busy ? 'Sending...' : 'Submit Feedback'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
