import type { SessionFigures as Figures } from '../../../../contract';
import { FigureList, type FigureRow } from './figure-list';
import { millisecondsText, secondsText, usdText } from './telemetry-format';

type Figure = Figures['lengthSeconds'];

function figureText(figure: Figure, text: (value: number) => string): string {
  if (figure.count === 0 || figure.median === null || figure.p90 === null) return 'No sessions measured';
  return `median ${text(figure.median)}, p90 ${text(figure.p90)} (${figure.count} measured)`;
}

/** The dashboard's session figures for the chosen range (docs/product-rules.md, Session telemetry). */
export function SessionFigures({ figures, days }: { figures: Figures; days: number }) {
  const rows: FigureRow[] = [
    ['Sessions', 'figure-sessions', String(figures.sessions)],
    ['Session length', 'figure-length', figureText(figures.lengthSeconds, secondsText)],
    ['Connect time', 'figure-connect', figureText(figures.connectMs, millisecondsText)],
    ['Estimated cost', 'figure-cost', usdText(figures.estimatedCostUsd)],
  ];
  return (
    <section
      aria-labelledby="session-figures-heading"
      className="w-fit rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
      data-testid="session-figures"
    >
      <h2 id="session-figures-heading" className="mb-2 font-semibold">
        Sessions in the last {days} days
      </h2>
      <FigureList rows={rows} />
      <p className="mt-2 text-xs text-gray-500">Costs are estimates from the price table (MODEL_PRICES).</p>
    </section>
  );
}
