import { useState } from 'react';
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { Button } from '../../components/button';
import { loadData, submitData, type Submitted } from '../../lib/load-data';
import { deleteFeedback, fetchCounts, fetchFeedback, type AdminFeedback } from './admin-api';
import { adminSessionFor, useAdminSession } from './admin-session';
import { downloadExport } from './csv-exports';
import { FeedbackDetails } from './feedback-details';
import { setLabel } from '../../../../domain/csv-exports';
import { adminTexts, formatDateTime } from './format';
import { eventPagesOf, loadPages } from './events-pages';
import { AdminError, AdminLoadError, AdminPageHeader, LoadMore } from './page-parts';
import { ConfirmDialog } from './confirm-dialog';

/** docs/product-rules.md, Admin area: the list preview is cut at 150 characters. */
export const FEEDBACK_PREVIEW_LENGTH = 150;

/** Counts characters as people do (code points), so an emoji is never cut in half. */
export function previewText(text: string): string {
  const characters = Array.from(text);
  return characters.length > FEEDBACK_PREVIEW_LENGTH ? `${characters.slice(0, FEEDBACK_PREVIEW_LENGTH).join('')}...` : text;
}

const LOAD_TEXTS = adminTexts('Failed to fetch feedback', 'An error occurred while fetching feedback.');
const DELETE_TEXTS = adminTexts('Failed to delete feedback', 'An error occurred while deleting feedback.');
/** The page's deletions share one fetcher: one busy state, one failure sentence on show. */
const DELETE_FETCHER = 'feedback-delete';

/** Feedback per request; the address says how many pages are on show (`?pages=`), as on Recent Events. */
export const FEEDBACK_PAGE_SIZE = 50;

export async function loader({ params, request }: LoaderFunctionArgs) {
  const session = await adminSessionFor(params);
  if (session === null) return null;
  const pages = eventPagesOf(new URL(request.url));
  const [list, counts] = await Promise.all([
    loadData(
      loadPages<AdminFeedback>(
        (last) => fetchFeedback(session, { limit: FEEDBACK_PAGE_SIZE, before: last?.id }),
        pages,
        FEEDBACK_PAGE_SIZE,
      ),
      LOAD_TEXTS,
    ),
    loadData(fetchCounts(session), LOAD_TEXTS),
  ]);
  return { ...list, total: counts.feedback, pages };
}

/** Deletes one feedback (`id`); the router then reloads the list. */
export async function action({ params, request }: ActionFunctionArgs): Promise<Submitted<unknown> | null> {
  const session = await adminSessionFor(params);
  if (session === null) return null;
  const id = Number((await request.formData()).get('id'));
  return submitData(deleteFeedback(session, id), DELETE_TEXTS);
}

function FeedbackHeader() {
  const session = useAdminSession();
  return (
    <AdminPageHeader title="User Feedback">
      {/* Every feedback row, streamed by the server. */}
      {session !== null && <Button onClick={() => void downloadExport(session, 'feedback')}>Download CSV</Button>}
    </AdminPageHeader>
  );
}

function FeedbackRow({ item, onDetails }: { item: AdminFeedback; onDetails: () => void }) {
  const fetcher = useFetcher({ key: DELETE_FETCHER });
  const [confirming, setConfirming] = useState(false);
  const remove = () => void fetcher.submit({ id: item.id }, { method: 'post' });
  return (
    <li data-testid="feedback-row" className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
      <div className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-gray-600">
        <span>{`#${item.id}`}</span>
        <span>{item.user?.email ?? 'Unknown User'}</span>
        <span>{item.topic}</span>
        <span>{`Q${item.questionIndex}`}</span>
        <span>{formatDateTime(item.createdAt)}</span>
        {/* Beside the specification's fields: the set as candidates know it. */}
        <small data-testid="feedback-set" className="text-sm text-gray-600">
          {`(${setLabel(item.questionIndex, item.topic)})`}
        </small>
      </div>
      <p data-testid="feedback-preview" className="mb-3 whitespace-pre-wrap break-words">
        {previewText(item.feedback)}
      </p>
      <div className="flex gap-2">
        <Button size="sm" onClick={onDetails}>
          View Details
        </Button>
        <Button size="sm" variant="danger" disabled={fetcher.state !== 'idle'} onClick={() => setConfirming(true)}>
          Delete
        </Button>
      </div>
      {confirming && (
        <ConfirmDialog
          title="Delete feedback"
          question="Are you sure you want to delete this feedback? This action cannot be undone."
          removes={`This removes feedback #${item.id} only. The person's account, interviews and other feedback stay; a topic that asks for feedback first may ask them again.`}
          confirmLabel="Delete feedback"
          onConfirm={remove}
          onClose={() => setConfirming(false)}
        />
      )}
    </li>
  );
}

/** docs/product-rules.md, Admin area: the list, details, delete and the CSV export. */
export function Component() {
  const data = useLoaderData<typeof loader>();
  const deletion = useFetcher<Submitted<unknown> | null>({ key: DELETE_FETCHER });
  const [selected, setSelected] = useState<AdminFeedback | null>(null);
  if (data === null) return <FeedbackHeader />;
  const { items } = data;
  return (
    <section>
      <FeedbackHeader />
      <AdminError error={deletion.data?.ok === false ? deletion.data.error : null} />
      <p className="mb-4 text-gray-600" data-testid="feedback-total">{`Total feedback: ${data.total}`}</p>
      {items.length === 0 && <p>No feedback found.</p>}
      <ul className="flex flex-col gap-3">
        {items.map((item) => (
          <FeedbackRow key={item.id} item={item} onDetails={() => setSelected(item)} />
        ))}
      </ul>
      {data.hasMore && <LoadMore pages={data.pages} path="/admin/feedback" label="Load older feedback" />}
      {selected && <FeedbackDetails item={selected} onClose={() => setSelected(null)} />}
    </section>
  );
}

export function ErrorBoundary() {
  return <AdminLoadError header={<FeedbackHeader />} />;
}
