import type { SessionTelemetry } from '../../../../contract';
import { FigureList, type FigureRow } from './figure-list';
import { endText, millisecondsText, secondsText, transportText, usageLines, usdText } from './telemetry-format';

const when = (iso: string | null) => (iso === null ? '—' : new Date(iso).toLocaleString());

/** The event's interview session: how it went, what it used and cost, what went wrong (docs/product-rules.md, Session telemetry). */
export function SessionDetails({ session }: { session: SessionTelemetry }) {
  const usage = usageLines(session.usage);
  const rows: FigureRow[] = [
    ['Transport', 'session-transport', transportText(session)],
    ['Started', 'session-started', when(session.startedAt)],
    ['Connect time', 'session-connect', session.connectMs === null ? '—' : millisecondsText(session.connectMs)],
    ['Length', 'session-length', session.lengthSeconds === null ? '—' : secondsText(session.lengthSeconds)],
    ['Ended', 'session-ended', when(session.endedAt)],
    ['End reason', 'session-end', endText(session)],
    ['Candidate turns', 'session-turns', String(session.candidateTurns)],
    ['Reconnections', 'session-resumes', String(session.resumes)],
    ['Estimated cost', 'session-cost', session.estimatedCostUsd === null ? 'Not priced' : usdText(session.estimatedCostUsd)],
  ];
  return (
    <section aria-labelledby="session-heading" className="mb-4">
      <h3 id="session-heading" className="mb-1 font-semibold">
        Session
      </h3>
      <FigureList rows={rows}>
        <dt className="font-semibold">Usage</dt>
        <dd data-testid="session-usage">
          {usage.length === 0 ? (
            'None reported'
          ) : (
            <ul>
              {usage.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </dd>
      </FigureList>
      {session.errorCount > 0 && (
        <>
          <h4 className="mt-2 font-semibold" data-testid="session-errors-heading">
            {session.errorCount > session.errors.length
              ? `Errors (${session.errorCount}, the first ${session.errors.length} kept)`
              : `Errors (${session.errorCount})`}
          </h4>
          <ul data-testid="session-errors" className="list-disc pl-5 text-sm">
            {session.errors.map((error, i) => (
              <li key={i}>
                <span className="text-gray-600">{new Date(error.at).toLocaleTimeString()}</span> {error.source}
                {error.code ? ` (${error.code})` : ''}: {error.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
