import { use } from 'react';
import type { TranscriptEntry } from '../../../contract';

/** A transcript, or the sentence saying why it is not there. */
export type TranscriptSource = TranscriptEntry[] | Promise<TranscriptEntry[] | string>;

/**
 * docs/product-rules.md, Results and history: the whole interview, both sides, offered with the
 * feedback (collapsed under "Transcript"). Typed answers say so.
 */
export function TranscriptView({ source }: { source: TranscriptSource }) {
  return (
    <details className="group rounded-2xl border border-slate-200 bg-slate-50" data-testid="transcript">
      <summary className="cursor-pointer list-none rounded-2xl px-4 py-3 font-semibold text-slate-900 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60">
        <span aria-hidden="true" className="mr-2 inline-block transition group-open:rotate-90">
          ▸
        </span>
        <span>Transcript</span>
      </summary>
      <div className="border-t border-slate-200 px-4 py-3">
        {Array.isArray(source) ? <Lines entries={source} /> : <Loaded source={source} />}
      </div>
    </details>
  );
}

function Loaded({ source }: { source: Promise<TranscriptEntry[] | string> }) {
  const entries = use(source);
  return typeof entries === 'string' ? <p className="text-sm text-slate-600">{entries}</p> : <Lines entries={entries} />;
}

function Lines({ entries }: { entries: TranscriptEntry[] }) {
  if (entries.length === 0) return <p className="text-sm text-slate-600">Nothing was said in this interview.</p>;
  return (
    <ol className="space-y-2 text-sm">
      {entries.map((entry, i) => (
        <li
          key={i}
          className={
            entry.role === 'interviewer' ? 'text-slate-800' : 'rounded-xl bg-white px-3 py-2 text-slate-900 ring-1 ring-indigo-100'
          }
        >
          <span className="font-semibold">
            {entry.role === 'interviewer' ? 'Interviewer' : entry.input === 'typed' ? 'You (typed)' : 'You'}:{' '}
          </span>
          {entry.transcript}
        </li>
      ))}
    </ol>
  );
}
