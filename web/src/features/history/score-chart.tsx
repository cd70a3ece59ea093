/**
 * One topic's scores over time as a line chart (chart.js, only the parts a line chart needs; a lazy
 * chunk of the History page, so nothing else loads the library). The canvas is an image to
 * assistive technology, named by `label`; the panel's "Show as tables" gives the same numbers as text.
 */
import { CategoryScale, Chart, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';
import type { TopicProgress } from '../../../../contract';
import { formatDate } from '../../../../domain/format';

Chart.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip);

export default function ScoreChart({ topic, label }: { topic: TopicProgress; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'line',
      data: {
        labels: topic.points.map((p) => formatDate(p.at)),
        datasets: [
          { label: 'Score', data: topic.points.map((p) => p.score), borderColor: '#4338ca', backgroundColor: '#4338ca', tension: 0.2 },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { display: false } },
        scales: { y: { min: 0, max: 100, ticks: { stepSize: 20 } } },
      },
    });
    return () => chart.destroy();
  }, [topic]);

  return (
    <div className="relative h-48 w-full">
      <canvas ref={canvas} role="img" aria-label={label} data-testid="score-chart" />
    </div>
  );
}
