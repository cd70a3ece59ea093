import { useState } from 'react';
import { deleteFeedback, fetchFeedback, type AdminFeedback } from './admin-api';
import { downloadExport } from './csv-exports';
import { FeedbackDetails } from './feedback-details';
import { failureText, formatDateTime } from './format';
import { useAdminList } from './use-admin-list';
import { AdminError, AdminPageHeader } from './page-parts';

/** docs/product-rules.md, Admin area: the list preview is cut at 150 characters. */
export const FEEDBACK_PREVIEW_LENGTH = 150;

/** Counts characters as people do (code points), so an emoji is never cut in half. */
export function previewText(text: string): string {
  const characters = Array.from(text);
  return characters.length > FEEDBACK_PREVIEW_LENGTH ? `${characters.slice(0, FEEDBACK_PREVIEW_LENGTH).join('')}...` : text;
}

const FEEDBACK_TEXTS = { failed: 'Failed to fetch feedback', otherwise: 'An error occurred while fetching feedback.' };

/** docs/product-rules.md, Admin area: the list, details, delete and the CSV export. */
export function FeedbackPage() {
  // `loaded`: the count and the empty state describe a list that was really loaded, not a failed load.
  const { secret, items, loading, loaded, error, busy, act } = useAdminList(fetchFeedback, FEEDBACK_TEXTS);
  const [selected, setSelected] = useState<AdminFeedback | null>(null);

  const remove = async (item: AdminFeedback) => {
    if (secret === null) return;
    if (!window.confirm('Are you sure you want to delete this feedback? This action cannot be undone.')) return;
    await act(async (key) => {
      const result = await deleteFeedback(key, item.id);
      return result.ok ? null : failureText(result, 'Failed to delete feedback', 'An error occurred while deleting feedback.');
    });
  };

  // Every feedback row, streamed by the server.
  const download = () => {
    if (secret !== null) void downloadExport(secret, 'feedback');
  };

  return (
    <section>
      <AdminPageHeader title="User Feedback">
        {secret !== null && (
          <button type="button" onClick={download} className="rounded bg-green-700 px-4 py-2 font-medium text-white hover:bg-green-800">
            Download CSV
          </button>
        )}
      </AdminPageHeader>
      <AdminError error={error} />
      {secret !== null && loaded && (
        <p className="mb-4 text-gray-600" data-testid="feedback-total">{`Total feedback: ${items.length}`}</p>
      )}
      {loading && <p className="text-gray-500">Loading...</p>}
      {secret !== null && loaded && !loading && items.length === 0 && <p>No feedback found.</p>}
      <ul className="flex flex-col gap-3">
        {items.map((item) => (
          <li key={item.id} data-testid="feedback-row" className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
            <div className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-gray-600">
              <span>{`#${item.id}`}</span>
              <span>{item.user?.email ?? 'Unknown User'}</span>
              <span>{item.topic}</span>
              <span>{`Q${item.questionIndex}`}</span>
              <span>{formatDateTime(item.createdAt)}</span>
            </div>
            <p data-testid="feedback-preview" className="mb-3 whitespace-pre-wrap break-words">
              {previewText(item.feedback)}
            </p>
            <div className="flex gap-2">
              <button type="button" onClick={() => setSelected(item)} className="rounded bg-blue-600 px-3 py-1 text-sm text-white hover:bg-blue-700">
                View Details
              </button>
              <button
                type="button"
                disabled={busy}
                onClick={() => void remove(item)}
                className="rounded bg-red-600 px-3 py-1 text-sm text-white hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-50"
              >
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
      {selected && <FeedbackDetails item={selected} onClose={() => setSelected(null)} />}
    </section>
  );
}

// Route module exports (pages.tsx); the list still loads itself (use-admin-list.ts) until it moves to its loader.
export const loader = () => null;
export { FeedbackPage as Component };
