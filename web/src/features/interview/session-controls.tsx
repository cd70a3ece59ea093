import { Button } from '../../components/button';
import { MicIcon } from '../../components/icons';
import type { ReactNode } from 'react';
import type { SessionPhase } from './session-controller';

export interface SessionControlsProps {
  phase: SessionPhase;
  onStart: () => void;
  onStop: () => void;
  /** While interrupted: the reconnect choice (reconnect-choice.tsx) in place of the buttons; the session's lazy chunk renders it. */
  reconnect?: ReactNode;
}

/** docs/product-rules.md, Session lifecycle: 'start session' → 'starting session...' (grey) → 'disconnect'; 'Loading Results ...' while rating. */
export function SessionControls({ phase, onStart, onStop, reconnect }: SessionControlsProps) {
  if (phase === 'interrupted' && reconnect) return reconnect;
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
  const starting = phase === 'starting';
  return (
    <Button onClick={onStart} disabled={starting} aria-busy={starting} className="min-w-44">
      {!starting && <MicIcon />}
      {starting ? 'starting session...' : 'start session'}
    </Button>
  );
}
