import type { ReactNode } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';

/**
 * The app's confirmation before a change that cannot be undone (not the browser's `confirm()`):
 * the question (the specification's sentence where it fixes one), then what exactly goes.
 * Cancel has the focus first, so Enter never removes anything by accident.
 */
export function ConfirmDialog({
  title,
  question,
  removes,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  title: string;
  question: string;
  removes: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog title={title} onClose={onClose} size="sm" testId="confirm-dialog">
      <p className="mb-2 text-sm font-medium text-gray-900">{question}</p>
      <div className="mb-2 text-sm text-gray-700">{removes}</div>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose} data-autofocus>
          Cancel
        </Button>
        <Button
          variant="danger"
          onClick={() => {
            onConfirm();
            onClose();
          }}
        >
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
