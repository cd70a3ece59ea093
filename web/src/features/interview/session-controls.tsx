import { Button } from '../../components/button';
import { MicIcon } from '../../components/icons';
import { ReconnectChoice } from './reconnect-choice';
import type { ReconnectView, SessionPhase } from './session-controller';

export interface SessionControlsProps {
  phase: SessionPhase;
  onStart: () => void;
  onStop: () => void;
  /** While interrupted: the reconnect choice in place of the buttons. */
  reconnect?: ReconnectView | null;
  onReconnect?: () => void;
}

/** docs/product-rules.md, Session lifecycle: 'start session' → 'starting session...' (grey) → 'disconnect'; 'Loading Results ...' while rating. */
export function SessionControls({ phase, onStart, onStop, reconnect, onReconnect }: SessionControlsProps) {
  if (phase === 'interrupted' && reconnect) return <ReconnectChoice view={reconnect} onReconnect={onReconnect ?? (() => undefined)} onStop={onStop} />;
  if (phase === 'rating')
    return (
      <Button disabled className="min-w-44">
        Loading Results ...
      </Button>
    );
  if (phase === 'active')
    return (
      <Button variant="danger" onClick={onStop} className="min-w-44">
        <span aria-hidden="true" className="h-2.5 w-2.5 rounded-sm bg-white" />
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
