/**
 * The History page's progress (docs/product-rules.md, Results and history), from one call
 * (GET /user/progress): what to practise next, each topic's scores over time (a chart, or the same
 * numbers as a table), and the key points missed most often with their question.
 */
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import type { MissedKeyPoint, PractiseNext, ProgressResponse, TopicProgress } from '../../../../contract';
import { formatDateTime } from '../../../../domain/format';
import { Button } from '../../components/button';
import { rememberSet } from '../../lib/selected-set';

const ScoreChart = lazy(() => import('./score-chart'));

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);
const interviews = (n: number) => `${n} ${n === 1 ? 'interview' : 'interviews'}`;

/** The chart's name for assistive technology: the scores in words. */
export function chartLabel(topic: TopicProgress): string {
  const scores = topic.points.map((p) => `${p.score}%`).join(', ');
  return `${topic.topic}: scores of ${interviews(topic.points.length)}, oldest first: ${scores}.`;
}

export function missedText(point: MissedKeyPoint): string {
  return `Missed ${times(point.missed)} in ${interviews(point.asked)} that asked this question.`;
}

interface MissedQuestion {
  topic: string;
  setIndex: number;
  question: string;
  points: MissedKeyPoint[];
}

/** The missed key points under their question, each question once, in the order of its most missed point. */
export function byQuestion(points: readonly MissedKeyPoint[]): MissedQuestion[] {
  const groups = new Map<string, MissedQuestion>();
  for (const point of points) {
    const key = `${point.topic}|${point.setIndex}|${point.question}`;
    const group = groups.get(key) ?? { topic: point.topic, setIndex: point.setIndex, question: point.question, points: [] };
    group.points.push(point);
    groups.set(key, group);
  }
  return [...groups.values()];
}

export function ProgressPanel({ progress }: { progress: ProgressResponse }) {
  const [asTables, setAsTables] = useState(false);
  if (progress.topics.length === 0) return null;
  return (
    <section aria-labelledby="progress-heading" className="mt-6 space-y-4" data-testid="progress">
      <h2 id="progress-heading" className="text-lg font-semibold text-slate-900">
        Your progress
      </h2>
      {progress.practiseNext && <PractiseNextCard next={progress.practiseNext} />}
      <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="font-semibold text-slate-900">Scores over time</h3>
          <Button variant="secondary" size="sm" aria-pressed={asTables} onClick={() => setAsTables(!asTables)}>
            {asTables ? 'Show as charts' : 'Show as tables'}
          </Button>
        </div>
        <div className="mt-3 grid gap-4 lg:grid-cols-2">
          {progress.topics.map((topic) => (
            <figure key={topic.topic} className="min-w-0">
              <figcaption className="text-sm font-medium text-slate-800">{topic.topic}</figcaption>
              {asTables ? (
                <ScoreTable topic={topic} />
              ) : (
                <Suspense fallback={<div className="h-48" />}>
                  <ScoreChart topic={topic} label={chartLabel(topic)} />
                </Suspense>
              )}
            </figure>
          ))}
        </div>
      </div>
      {progress.missedKeyPoints.length > 0 && (
        <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
          <h3 className="font-semibold text-slate-900">Key points you missed most often</h3>
          <ol className="mt-3 space-y-4" data-testid="missed-key-points">
            {byQuestion(progress.missedKeyPoints).map((group) => (
              <li key={`${group.topic}|${group.setIndex}|${group.question}`} className="text-sm" data-testid="missed-question">
                <p className="font-medium text-slate-900">
                  {group.topic}, set {group.setIndex}: “{group.question}”
                </p>
                <ul className="mt-1.5 space-y-1.5 border-l-2 border-indigo-200 pl-3">
                  {group.points.map((point) => (
                    <li key={point.keyPoint} data-testid="missed-key-point">
                      <span className="font-medium text-slate-900">{point.keyPoint}</span>{' '}
                      <span className="text-slate-600">{missedText(point)}</span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

function PractiseNextCard({ next }: { next: PractiseNext }) {
  const navigate = useNavigate();
  const practise = () => {
    rememberSet(next.questionSetId);
    void navigate('/');
  };
  return (
    <div className="rounded-2xl border border-indigo-200 bg-indigo-50 p-4 sm:p-5" data-testid="practise-next">
      <h3 className="font-semibold text-indigo-950">Practise next</h3>
      <p className="mt-1 text-sm text-indigo-950">
        {next.topic}, set {next.setIndex}: “{next.question}” Your latest score there is {next.score}%.
        {next.missed.length > 0 && ` Work on: ${next.missed.join('; ')}.`}
      </p>
      <Button className="mt-3" onClick={practise}>
        Practise {next.topic}, set {next.setIndex}
      </Button>
    </div>
  );
}

function ScoreTable({ topic }: { topic: TopicProgress }) {
  return (
    <table className="mt-2 w-full text-left text-sm" data-testid="score-table">
      <caption className="sr-only">{topic.topic}: scores over time</caption>
      <thead>
        <tr className="border-b border-slate-200 text-slate-600">
          <th scope="col" className="py-1 pr-3 font-medium">
            Date
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            Set
          </th>
          <th scope="col" className="py-1 font-medium">
            Score
          </th>
        </tr>
      </thead>
      <tbody>
        {topic.points.map((p) => (
          <tr key={p.ratingId} className="border-b border-slate-100">
            <td className="py-1 pr-3">{formatDateTime(p.at)}</td>
            <td className="py-1 pr-3">{p.setIndex}</td>
            <td className="py-1">{p.score}%</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
