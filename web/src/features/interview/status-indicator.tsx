import type { SessionPhase } from './session-controller';

export type ConnectionStatus = 'Not Connected' | 'Connected' | 'Bot is speaking...';

export function connectionStatus(phase: SessionPhase, speaking: boolean): ConnectionStatus {
  if (phase !== 'active') return 'Not Connected';
  return speaking ? 'Bot is speaking...' : 'Connected';
}

const styles: Record<ConnectionStatus, { pill: string; dot: string }> = {
  'Not Connected': { pill: 'bg-slate-100 text-slate-700 ring-slate-300', dot: 'bg-slate-400' },
  Connected: { pill: 'bg-green-50 text-green-800 ring-green-300 glow-connected', dot: 'bg-green-600' },
  'Bot is speaking...': { pill: 'bg-indigo-50 text-indigo-800 ring-indigo-300 glow-speaking', dot: 'bg-indigo-600' },
};

/** docs/product-rules.md, Session lifecycle: grey when not connected, green with a soft 2.5 s glow, indigo with a strong 1.5 s glow. */
export function StatusIndicator({ status }: { status: ConnectionStatus }) {
  const style = styles[status];
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="status-indicator"
      data-status={status}
      className={`inline-flex items-center gap-2 rounded-full px-3 py-1.5 text-sm font-semibold ring-1 ${style.pill}`}
    >
      <span aria-hidden="true" className={`size-2.5 rounded-full ${style.dot}`} />
      {status}
    </div>
  );
}
