/**
 * The dashboard's picture of use over a chosen range: interviews started and rated per day, the
 * score distribution and how many accounts reached each set. Loaded lazily by the dashboard, so
 * the charting library stays in its own chunk of the admin area. Every chart has a text
 * alternative: "Show as tables" swaps the canvases for tables of the same numbers.
 */
import { use, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { Submitted } from '../../../lib/load-data';
import type { DailyStats } from '../admin-api';
import { CHART_RANGES, type ChartRange } from '../dashboard-range';
import { BarChart, type BarSeries } from './bar-chart';
import { DataTable } from './data-table';

const STARTED = '#2563eb';
const RATED = '#15803d';
const SCORES = '#7c3aed';
const REACHED = '#c2410c';

const TOGGLE =
  'rounded border px-3 py-1 text-sm aria-pressed:border-blue-700 aria-pressed:bg-blue-700 aria-pressed:text-white border-gray-300 bg-white hover:bg-gray-100';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    // min-w-0: a grid item may shrink below the canvas's last width, so the chart redraws to fit instead of being cut at the right.
    <section className="min-w-0 rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
      <h2 className="mb-2 font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Charts({ stats, asTables }: { stats: DailyStats; asTables: boolean }) {
  const days = useMemo(() => stats.perDay.map((d) => d.date), [stats]);
  const daily: BarSeries[] = useMemo(
    () => [
      { label: 'Started', values: stats.perDay.map((d) => d.started), color: STARTED },
      { label: 'Rated', values: stats.perDay.map((d) => d.rated), color: RATED },
    ],
    [stats],
  );
  const bands = useMemo(() => stats.scores.map((b) => `${b.from}-${b.to}`), [stats]);
  const scores: BarSeries[] = useMemo(
    () => [{ label: 'Rated interviews', values: stats.scores.map((b) => b.count), color: SCORES }],
    [stats],
  );
  const sets = useMemo(() => stats.completionBySet.map((s) => `Set ${s.index} · ${s.name}`), [stats]);
  const reached: BarSeries[] = useMemo(
    () => [{ label: 'Accounts', values: stats.completionBySet.map((s) => s.accounts), color: REACHED }],
    [stats],
  );
  const total = (values: number[]) => values.reduce((sum, n) => sum + n, 0);

  return (
    <div className="grid gap-4 xl:grid-cols-2">
      <Panel title="Interviews per day">
        {asTables ? (
          <DataTable
            caption="Interviews per day"
            headers={['Day', 'Started', 'Rated']}
            rows={stats.perDay.map((d) => [d.date, d.started, d.rated])}
          />
        ) : (
          <BarChart
            label={`Interviews per day from ${stats.from} to ${stats.to}: ${total(daily[0]?.values ?? [])} started, ${total(daily[1]?.values ?? [])} rated.`}
            labels={days}
            series={daily}
          />
        )}
      </Panel>
      <Panel title="Score distribution">
        {asTables ? (
          <DataTable
            caption="Score distribution"
            headers={['Score', 'Rated interviews']}
            rows={stats.scores.map((b) => [`${b.from}-${b.to}`, b.count])}
          />
        ) : (
          <BarChart
            label={`Score distribution of ${total(scores[0]?.values ?? [])} rated interviews in ten bands from 0 to 100.`}
            labels={bands}
            series={scores}
          />
        )}
      </Panel>
      <Panel title="Completion per set">
        {asTables ? (
          <DataTable
            caption="Completion per set"
            headers={['Set', 'Accounts']}
            rows={stats.completionBySet.map((s) => [`Set ${s.index} · ${s.name}`, s.accounts])}
          />
        ) : (
          <BarChart label={`Accounts with a rated interview on each of ${sets.length} sets.`} labels={sets} series={reached} horizontal />
        )}
      </Panel>
    </div>
  );
}

/** The range buttons: the range is in the address (`?days=`), so back and forward go through the ranges seen. */
function RangeButtons({ days }: { days: ChartRange }) {
  const [, setSearchParams] = useSearchParams();
  const choose = (range: ChartRange) =>
    setSearchParams(
      (params) => {
        params.set('days', String(range));
        return params;
      },
      { preventScrollReset: true },
    );
  return (
    <div role="group" aria-label="Range" className="flex gap-1">
      {CHART_RANGES.map((range) => (
        <button key={range} type="button" aria-pressed={days === range} onClick={() => choose(range)} className={TOGGLE}>
          {range} days
        </button>
      ))}
    </div>
  );
}

/** Suspends ("Loading charts..." in the dashboard) until the loader's promise has the numbers. */
export default function DashboardCharts({ daily, days }: { daily: Promise<Submitted<DailyStats>>; days: ChartRange }) {
  const [asTables, setAsTables] = useState(false);
  const answer = use(daily);

  return (
    <div className="flex flex-col gap-4" data-testid="dashboard-charts">
      <div className="flex flex-wrap items-center gap-2">
        <RangeButtons days={days} />
        <button type="button" aria-pressed={asTables} onClick={() => setAsTables(!asTables)} className={`${TOGGLE} ml-auto`}>
          Show as tables
        </button>
      </div>
      {answer.ok ? (
        <Charts stats={answer.data} asTables={asTables} />
      ) : (
        <p role="alert" className="rounded bg-red-50 p-3 text-red-700">
          {answer.error}
        </p>
      )}
    </div>
  );
}
