import type { ReactNode } from 'react';
import { Button } from '../../components/button';
import type { SessionPhase } from './session-controller';

/**
 * docs/product-rules.md, Session lifecycle: 'disconnect' while active, 'Loading Results ...' while
 * rating, the reconnect choice while interrupted; null otherwise (the start button shows). Rendered
 * by the session's lazy chunk and handed to the session controls (session-controls.tsx).
 */
export function runningControls(phase: SessionPhase, onStop: () => void, reconnect: ReactNode): ReactNode {
  if (phase === 'interrupted') return reconnect;
  if (phase === 'rating')
    return (
      <Button disabled className="min-w-44">
        Loading Results ...
      </Button>
    );
  if (phase === 'active')
    return (
      <Button variant="danger" onClick={onStop} className="min-w-44">
        <span aria-hidden="true" className="size-2.5 rounded-sm bg-white" />
        disconnect
      </Button>
    );
  return null;
}
