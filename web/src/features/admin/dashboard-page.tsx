import { lazy, Suspense } from 'react';
import { Await, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { ordinal } from '../../../../domain/format';
import { dataOr, submitData, type Submitted } from '../../lib/load-data';
import { fetchDailyStats, fetchStats, type DailyStats, type InterviewStats } from './admin-api';
import { SessionFigures } from './session-figures';
import { adminSessionFor } from './admin-session';
import { chartRangeOf } from './dashboard-range';
import { adminTexts } from './format';
import { ScrollX } from './scroll-x';
import { useConfig } from '../../lib/config';

// Its own chunk: the charting library loads only when the dashboard shows.
const DashboardCharts = lazy(() => import('./charts/dashboard-charts'));

const STATS_TEXTS = adminTexts('Failed to fetch statistics', 'An error occurred while fetching statistics.');

/**
 * Nothing here waits: the totals and the charts arrive as promises, each with its own loading
 * text. A failed totals load shows nothing (docs/product-rules.md, Admin area); a failed charts
 * load shows its sentence.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const session = await adminSessionFor(params);
  if (session === null) return null;
  const days = chartRangeOf(new URL(request.url));
  return {
    stats: dataOr(fetchStats(session), null, null),
    daily: submitData(fetchDailyStats(session, days), STATS_TEXTS),
    days,
  };
}

/** docs/product-rules.md, Admin area: as many columns as the highest numeric key of interviewCounts, 0 where a key is missing. */
export function interviewColumns(counts: Record<string, number>): { label: string; count: number }[] {
  const keys = Object.keys(counts)
    .filter((key) => /^\d+$/.test(key))
    .map(Number);
  const highest = Math.max(0, ...keys);
  return Array.from({ length: highest }, (_, i) => ({
    label: i === 0 ? '1st interview taken' : ordinal(i + 1),
    count: counts[String(i + 1)] ?? 0,
  }));
}

function InterviewsTable({ counts }: { counts: Record<string, number> }) {
  const columns = interviewColumns(counts);
  if (columns.length === 0) return null;
  const cell = 'border border-gray-200 px-4 py-2';
  return (
    <ScrollX label="Interviews taken by number">
      <table className="border-collapse bg-white text-left text-sm" aria-label="Interviews taken">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={`${cell} font-semibold`}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {columns.map((column) => (
              <td key={column.label} className={cell}>
                {column.count}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </ScrollX>
  );
}

function StatsSummary({ stats }: { stats: InterviewStats }) {
  return (
    <div className="flex flex-col gap-6">
      <div className="w-fit rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
        <p className="text-sm text-gray-500">Total emails</p>
        <p className="text-3xl font-bold" data-testid="email-count">
          {stats.emailCount}
        </p>
      </div>
      <InterviewsTable counts={stats.interviewCounts} />
    </div>
  );
}

/** README, Who can read what: the operator sees which sign-in mode runs. */
function SigninMode() {
  const { config } = useConfig();
  return (
    <p className="mb-4 text-sm text-gray-600" data-testid="signin-mode">
      {config.signin === 'link'
        ? 'Sign-in: links by email (SIGNIN=link). Only the person who opens the link can read their interviews.'
        : "Sign-in: email only (SIGNIN=email). Anyone who can reach this site and knows a candidate's email can read their interviews."}
    </p>
  );
}

export function Component() {
  const data = useLoaderData<typeof loader>();
  const heading = (
    <>
      <h1 className="mb-4 text-2xl font-bold">Dashboard</h1>
      <SigninMode />
    </>
  );
  if (data === null) return heading;
  return (
    <section>
      {heading}
      <Suspense fallback={<p className="text-gray-500">Loading...</p>}>
        <Await resolve={data.stats}>{(stats: InterviewStats | null) => stats && <StatsSummary stats={stats} />}</Await>
      </Suspense>
      <div className="mt-8">
        <Suspense fallback={<p className="text-gray-500">Loading charts...</p>}>
          <DashboardCharts daily={data.daily} days={data.days} />
        </Suspense>
      </div>
      <div className="mt-8">
        <Suspense fallback={null}>
          <Await resolve={data.daily}>
            {(daily: Submitted<DailyStats>) => daily.ok && <SessionFigures figures={daily.data.sessions} days={data.days} />}
          </Await>
        </Suspense>
      </div>
    </section>
  );
}
