import { StatusIndicator } from './status-indicator';

/** The status of a connected session (docs/product-rules.md, Session lifecycle): 'Connected' in green, 'Bot is speaking...' in indigo, each with its glow. */
export function LiveStatus({ speaking }: { speaking: boolean }) {
  return speaking ? (
    <StatusIndicator status="Bot is speaking..." pill="bg-indigo-50 text-indigo-800 ring-indigo-300 glow-speaking" dot="bg-indigo-600" />
  ) : (
    <StatusIndicator status="Connected" pill="bg-green-50 text-green-800 ring-green-300 glow-connected" dot="bg-green-600" />
  );
}
