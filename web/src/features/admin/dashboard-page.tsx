import { lazy, Suspense, useEffect, useState } from 'react';
import { ordinal } from '../../../../domain/format';
import { fetchStats, type InterviewStats } from './admin-api';
import { useAdminSecret } from './admin-secret';

// Its own chunk: the charting library loads only when the dashboard shows.
const DashboardCharts = lazy(() => import('./charts/dashboard-charts'));

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

export function DashboardPage() {
  const secret = useAdminSecret();
  const [stats, setStats] = useState<InterviewStats | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    if (secret === null) return;
    let live = true;
    setLoading(true);
    void fetchStats(secret).then((result) => {
      if (!live) return;
      // docs/product-rules.md, Admin area: a failed stats load is not shown; only the loading state ends.
      if (result.ok) setStats(result.data);
      setLoading(false);
    });
    return () => {
      live = false;
    };
  }, [secret]);

  if (secret === null) return <h1 className="mb-4 text-2xl font-bold">Dashboard</h1>;
  const columns = stats ? interviewColumns(stats.interviewCounts) : [];

  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Dashboard</h1>
      {loading ? (
        <p className="text-gray-500">Loading...</p>
      ) : (
        stats && (
          <div className="flex flex-col gap-6">
            <div className="w-fit rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
              <p className="text-sm text-gray-500">Total emails</p>
              <p className="text-3xl font-bold" data-testid="email-count">
                {stats.emailCount}
              </p>
            </div>
            {columns.length > 0 && (
              <div className="overflow-x-auto">
                <table className="border-collapse bg-white text-left text-sm" aria-label="Interviews taken">
                  <thead>
                    <tr>
                      {columns.map((column) => (
                        <th key={column.label} scope="col" className="border border-gray-200 px-4 py-2 font-semibold">
                          {column.label}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    <tr>
                      {columns.map((column) => (
                        <td key={column.label} className="border border-gray-200 px-4 py-2">
                          {column.count}
                        </td>
                      ))}
                    </tr>
                  </tbody>
                </table>
              </div>
            )}
          </div>
        )
      )}
      <div className="mt-8">
        <Suspense fallback={<p className="text-gray-500">Loading charts...</p>}>
          <DashboardCharts secret={secret} />
        </Suspense>
      </div>
    </section>
  );
}
