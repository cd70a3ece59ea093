import { Fragment } from 'react';
import type { SessionFigures as Figures } from '../../../../contract';
import { millisecondsText, secondsText, usdText } from './telemetry-format';

type Figure = Figures['lengthSeconds'];

function figureText(figure: Figure, text: (value: number) => string): string {
  if (figure.count === 0 || figure.median === null || figure.p90 === null) return 'No sessions measured';
  return `median ${text(figure.median)}, p90 ${text(figure.p90)} (${figure.count} measured)`;
}

/** The dashboard's session figures for the chosen range (docs/product-rules.md, Session telemetry). */
export function SessionFigures({ figures, days }: { figures: Figures; days: number }) {
  const rows: Array<[string, string, string]> = [
    ['Sessions', 'figure-sessions', String(figures.sessions)],
    ['Session length', 'figure-length', figureText(figures.lengthSeconds, secondsText)],
    ['Connect time', 'figure-connect', figureText(figures.connectMs, millisecondsText)],
    ['Estimated cost', 'figure-cost', usdText(figures.estimatedCostUsd)],
  ];
  return (
    <section aria-labelledby="session-figures-heading" className="w-fit rounded-lg border border-gray-200 bg-white p-4 shadow-sm" data-testid="session-figures">
      <h2 id="session-figures-heading" className="mb-2 font-semibold">
        Sessions in the last {days} days
      </h2>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, testId, value]) => (
          <Fragment key={testId}>
            <dt className="font-semibold">{label}</dt>
            <dd data-testid={testId}>{value}</dd>
          </Fragment>
        ))}
      </dl>
      <p className="mt-2 text-xs text-gray-500">Costs are estimates from the price table (MODEL_PRICES).</p>
    </section>
  );
}
