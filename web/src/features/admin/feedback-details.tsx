import type { AdminFeedback } from './admin-api';
import { Dialog } from '../../components/dialog';
import { setLabel } from '../../../../domain/csv-exports';
import { formatDateTime } from './format';
import { DialogFooter } from './page-parts';

/** The whole feedback; user text is shown as text, never as HTML. */
export function FeedbackDetails({ item, onClose }: { item: AdminFeedback; onClose: () => void }) {
  return (
    <Dialog title="Feedback Details" onClose={onClose} size="lg">
      <dl className="mb-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold">ID</dt>
        <dd>{item.id}</dd>
        <dt className="font-semibold">User</dt>
        <dd>{item.user?.email ?? 'Unknown User'}</dd>
        <dt className="font-semibold">Topic</dt>
        <dd>{item.topic}</dd>
        <dt className="font-semibold">Question</dt>
        <dd>{`Q${item.questionIndex}`}</dd>
        <dt className="font-semibold">Set (as candidates see it)</dt>
        <dd data-testid="feedback-set">{setLabel(item.questionIndex, item.topic)}</dd>
        <dt className="font-semibold">Date</dt>
        <dd>{formatDateTime(item.createdAt)}</dd>
      </dl>
      <p data-testid="feedback-full" className="whitespace-pre-wrap break-words rounded bg-gray-100 p-3">
        {item.feedback}
      </p>
      <DialogFooter onClose={onClose} />
    </Dialog>
  );
}
