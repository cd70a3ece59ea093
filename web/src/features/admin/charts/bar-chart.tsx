/**
 * One bar chart on a canvas (chart.js, only the parts a bar chart needs, so the admin chunk stays
 * small). The canvas is an image to assistive technology, named by `label`; the dashboard's table
 * toggle gives the same numbers as text.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface BarSeries {
  label: string;
  values: number[];
  color: string;
}

export function BarChart({
  label,
  labels,
  series,
  horizontal = false,
}: {
  label: string;
  labels: string[];
  series: BarSeries[];
  horizontal?: boolean;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((s) => ({ label: s.label, data: s.values, backgroundColor: s.color })),
      },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        // Room at the edges, so the last bar (today) and its tick label are never cut.
        layout: { padding: { right: 12, left: 4 } },
        plugins: { legend: { display: series.length > 1 } },
        scales: { [horizontal ? 'x' : 'y']: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    return () => chart.destroy();
  }, [labels, series, horizontal]);

  return (
    <div className="relative h-64 w-full min-w-0">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
