import { Button } from '../../components/button';
import { MicIcon } from '../../components/icons';
import type { ReactNode } from 'react';

export interface SessionControlsProps {
  starting: boolean;
  onStart: () => void;
  /** Once a session runs: its controls (running-controls.tsx), rendered by the session's lazy chunk, in place of the start button. */
  running?: ReactNode;
}

/** docs/product-rules.md, Session lifecycle: 'start session' → 'starting session...' (grey); then the running session's controls. */
export function SessionControls({ starting, onStart, running }: SessionControlsProps) {
  if (running) return running;
  return (
    <Button onClick={onStart} disabled={starting} aria-busy={starting} className="min-w-44">
      {!starting && <MicIcon />}
      {starting ? 'starting session...' : 'start session'}
    </Button>
  );
}
