import { useEffect, useState } from 'react';
import { fetchEventDetails, type AdminEvent, type AdminEventRow, type AdminSession } from './admin-api';
import { failureSentence } from '../../lib/load-data';
import type { ApiResult } from '../../lib/http';
import { adminTexts } from './format';
import { Markdown } from '../../components/lazy-markdown';
import { Dialog } from '../../components/dialog';
import { DialogFooter } from './page-parts';
import { setLabel } from '../../../../domain/csv-exports';
import { SessionDetails } from './session-details';

const TEXTS = adminTexts('Failed to fetch the event', 'An error occurred while fetching the event.');

/**
 * The whole event, fetched when the dialog opens: the list's rows carry only previews of the
 * transcript and the rating (a transcript may hold 200,000 characters; issue 33 item 2).
 */
function useWholeEvent(session: AdminSession, id: number): ApiResult<AdminEvent> | null {
  const [loaded, setLoaded] = useState<ApiResult<AdminEvent> | null>(null);
  useEffect(() => {
    let open = true;
    void fetchEventDetails(session, id).then((result) => {
      if (open) setLoaded(result);
    });
    return () => {
      open = false;
    };
  }, [session, id]);
  return loaded;
}

/** docs/product-rules.md, Admin area: id, topic, set index, the session's telemetry, the transcript as formatted JSON and the rating Markdown. */
export function EventDetails({ row, session, onClose }: { row: AdminEventRow; session: AdminSession; onClose: () => void }) {
  const loaded = useWholeEvent(session, row.id);
  return (
    <Dialog title="Event Details" onClose={onClose} size="lg">
      <dl className="mb-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold">ID</dt>
        <dd data-testid="detail-id">{row.id}</dd>
        <dt className="font-semibold">Topic</dt>
        <dd data-testid="detail-topic">{row.topic ?? ''}</dd>
        <dt className="font-semibold">Question Set Index</dt>
        <dd data-testid="detail-index">{row.questionSetIndex ?? ''}</dd>
        {row.questionSetIndex !== null && (
          <>
            <dt className="font-semibold">Set (as candidates see it)</dt>
            <dd data-testid="detail-set">{setLabel(row.questionSetIndex + 1, row.topic)}</dd>
          </>
        )}
        {row.rater && (
          <>
            <dt className="font-semibold">Rated by</dt>
            <dd data-testid="detail-rater">{row.rater}</dd>
          </>
        )}
      </dl>
      {row.session && <SessionDetails session={row.session} />}
      {loaded === null ? (
        <Preview row={row} />
      ) : loaded.ok ? (
        <WholeTexts event={loaded.data} />
      ) : (
        <p role="alert" className="mb-4 text-sm text-red-700">
          {failureSentence(loaded, TEXTS)}
        </p>
      )}
      <DialogFooter onClose={onClose} />
    </Dialog>
  );
}

/** While the whole event loads: the row's preview, marked as one. */
function Preview({ row }: { row: AdminEventRow }) {
  const lines = (row.transcript ?? []).map((entry) => `${entry.role === 'interviewer' ? 'Interviewer' : 'Candidate'}: ${entry.transcript}`);
  return (
    <div className="mb-4">
      <p role="status" className="mb-1 text-sm text-gray-600">
        Loading the whole transcript and rating...
      </p>
      {lines.length > 0 && (
        <pre data-testid="detail-preview" className="whitespace-pre-wrap break-words rounded bg-gray-50 p-3 text-xs text-gray-700">
          {lines.join('\n')}
          {row.truncated ? ' …' : ''}
        </pre>
      )}
    </div>
  );
}

/** The transcript (JSON and conversation), the breakdown and the rating Markdown of the whole event. */
function WholeTexts({ event }: { event: AdminEvent }) {
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        <div className="min-w-0">
          <h3 className="mb-1 font-semibold">Transcript</h3>
          <pre
            data-testid="detail-transcript"
            className="mb-4 max-h-72 overflow-auto whitespace-pre-wrap break-words rounded bg-gray-100 p-3 text-xs"
            tabIndex={0}
          >
            {JSON.stringify(event.transcript ?? [], null, 2)}
          </pre>
        </div>
        <Conversation transcript={event.transcript ?? []} />
      </div>
      {event.ratingBreakdown && event.ratingBreakdown.length > 0 && <RatingBreakdownTable breakdown={event.ratingBreakdown} />}
      <h3 className="mb-1 font-semibold">Rating</h3>
      <div data-testid="detail-rating">
        <Markdown>{event.ratingMarkdown?.trim() ? event.ratingMarkdown : '*No rating markdown available*'}</Markdown>
      </div>
    </>
  );
}

/** Per question: verdict, score, the key points earned with the candidate's words, and those missed. */
function RatingBreakdownTable({ breakdown }: { breakdown: NonNullable<AdminEvent['ratingBreakdown']> }) {
  return (
    <>
      <h3 className="mb-1 font-semibold">Breakdown</h3>
      <ol data-testid="detail-breakdown" className="mb-4 list-decimal space-y-2 pl-5 text-sm">
        {breakdown.map((item, i) => (
          <li key={i}>
            <p>
              <span className="font-semibold">{item.question}</span> — {item.verdict} ({item.score}/100)
            </p>
            {item.covered.length > 0 && (
              <ul className="list-disc pl-5">
                {item.covered.map((point, k) => (
                  <li key={k}>
                    Covered: {point}. Said: “{item.evidence[k] ?? ''}”
                  </li>
                ))}
              </ul>
            )}
            {item.missed.length > 0 && <p className="text-gray-700">Missed: {item.missed.join('; ')}</p>}
          </li>
        ))}
      </ol>
    </>
  );
}

/** The transcript as a conversation, speaker by speaker, beside the JSON the specification shows. */
function Conversation({ transcript }: { transcript: NonNullable<AdminEvent['transcript']> }) {
  return (
    <section aria-label="Conversation" className="mb-4 min-w-0">
      <h3 className="mb-1 font-semibold">Conversation</h3>
      {transcript.length === 0 ? (
        <p className="text-sm text-gray-600">Nothing was said.</p>
      ) : (
        <ol
          data-testid="detail-conversation"
          tabIndex={0}
          className="max-h-72 space-y-2 overflow-auto rounded border border-gray-200 p-3 text-sm"
        >
          {transcript.map((entry, i) => (
            <li key={i} className={entry.role === 'interviewer' ? 'pr-6' : 'pl-6 text-right'}>
              <span className="block text-xs font-semibold text-gray-600">
                {entry.role === 'interviewer' ? 'Interviewer' : 'Candidate'}
              </span>
              <span
                className={`inline-block rounded-lg px-3 py-1.5 text-left break-words whitespace-pre-wrap ${entry.role === 'interviewer' ? 'bg-gray-100' : 'bg-indigo-50'}`}
              >
                {entry.transcript}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
