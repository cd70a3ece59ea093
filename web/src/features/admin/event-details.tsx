import type { AdminEvent } from './admin-api';
import { Markdown } from '../../components/lazy-markdown';
import { Dialog } from '../../components/dialog';

/** Spec §2: id, topic, set index, the transcript as formatted JSON and the rating Markdown. */
export function EventDetails({ event, onClose }: { event: AdminEvent; onClose: () => void }) {
  return (
    <Dialog title="Event Details" onClose={onClose} size="lg">
      <dl className="mb-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold">ID</dt>
        <dd data-testid="detail-id">{event.id}</dd>
        <dt className="font-semibold">Topic</dt>
        <dd data-testid="detail-topic">{event.topic ?? ''}</dd>
        <dt className="font-semibold">Question Set Index</dt>
        <dd data-testid="detail-index">{event.questionSetIndex ?? ''}</dd>
        {event.rater && (
          <>
            <dt className="font-semibold">Rated by</dt>
            <dd data-testid="detail-rater">{event.rater}</dd>
          </>
        )}
      </dl>
      <h3 className="mb-1 font-semibold">Transcript</h3>
      <pre data-testid="detail-transcript" className="mb-4 max-h-72 overflow-auto whitespace-pre-wrap rounded bg-gray-100 p-3 text-xs">
        {JSON.stringify(event.transcript ?? [], null, 2)}
      </pre>
      <h3 className="mb-1 font-semibold">Rating</h3>
      <div data-testid="detail-rating">
        <Markdown>{event.ratingMarkdown?.trim() ? event.ratingMarkdown : '*No rating markdown available*'}</Markdown>
      </div>
      <div className="mt-4 flex justify-end">
        <button type="button" onClick={onClose} className="rounded bg-gray-200 px-4 py-2 hover:bg-gray-300">
          Close
        </button>
      </div>
    </Dialog>
  );
}
