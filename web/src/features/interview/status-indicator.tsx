export type ConnectionStatus = 'Not Connected' | 'Connected' | 'Bot is speaking...';

export interface StatusIndicatorProps {
  status?: ConnectionStatus;
  /** The pill's colours (and glow) and the dot's; the defaults are the grey of 'Not Connected'. */
  pill?: string;
  dot?: string;
}

/**
 * docs/product-rules.md, Session lifecycle: grey when not connected, green with a soft 2.5 s glow,
 * indigo with a strong 1.5 s glow. The first screen shows it grey; a connected session's colours
 * come with the session's chunk (live-status.tsx).
 */
export function StatusIndicator({
  status = 'Not Connected',
  pill = 'bg-slate-100 text-slate-700 ring-slate-300',
  dot = 'bg-slate-400',
}: StatusIndicatorProps) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="status-indicator"
      data-status={status}
      className={`inline-flex items-center gap-2 rounded-full px-3 py-1.5 text-sm font-semibold ring-1 ${pill}`}
    >
      <span aria-hidden="true" className={`size-2.5 rounded-full ${dot}`} />
      {status}
    </div>
  );
}
