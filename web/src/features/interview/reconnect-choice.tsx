import { useEffect, useRef } from 'react';
import { Button } from '../../components/button';
import { RECONNECT_REFUSED_HINT } from './reconnect-texts';
import type { ReconnectView } from './session-controller';

export interface ReconnectChoiceProps {
  view: ReconnectView;
  onReconnect: () => void;
  onStop: () => void;
}

/**
 * docs/product-rules.md, Session lifecycle (Reconnecting): the connection dropped mid-interview.
 * The sentence is an alert (announced as it changes); once a choice is offered, focus moves to it
 * so a keyboard or screen-reader user lands on Reconnect (or on ending, when reconnecting is refused).
 */
export function ReconnectChoice({ view, onReconnect, onStop }: ReconnectChoiceProps) {
  const reconnectRef = useRef<HTMLButtonElement>(null);
  const endRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (view.trying) return;
    (view.canRetry ? reconnectRef.current : endRef.current)?.focus();
  }, [view.trying, view.canRetry]);

  return (
    <div
      role="group"
      aria-label="Connection lost"
      data-testid="reconnect-choice"
      className="flex flex-col items-center gap-3 rounded-xl bg-amber-50 px-3 py-3 text-center ring-1 ring-amber-200"
    >
      <p role="alert" className="text-sm text-amber-950" data-testid="reconnect-message">
        {view.message}
        {!view.canRetry && <span className="mt-1 block">{RECONNECT_REFUSED_HINT}</span>}
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        {view.canRetry && (
          <Button ref={reconnectRef} onClick={onReconnect} disabled={view.trying} aria-busy={view.trying} className="min-w-36">
            {view.trying ? 'Reconnecting...' : 'Reconnect'}
          </Button>
        )}
        <Button ref={endRef} variant="secondary" onClick={onStop}>
          End and get feedback
        </Button>
      </div>
    </div>
  );
}
