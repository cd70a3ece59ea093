import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useLatest } from '../lib/use-latest';

/** What Tab can reach (a shorter spelling of the usual list; checked in document order). */
const FOCUSABLE = 'a[href],:is(button,input,textarea,select):not([disabled]),summary,[tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: ReactNode;
  children: ReactNode;
  /** Called on Escape and on the backdrop; omit for a dialog the person must complete. */
  onClose?: () => void;
  /** Wider layouts (topic list, results). */
  size?: 'sm' | 'md' | 'lg';
  /** Accessible description id inside children, if any. */
  describedBy?: string;
  /** data-testid for the panel. */
  testId?: string;
}

const widths = { sm: 'max-w-md', md: 'max-w-lg', lg: 'max-w-3xl' } as const;

/** The panels of the open dialogs, oldest first; the last one is on top and owns the keyboard. */
const openDialogs: HTMLElement[] = [];

/**
 * Tab and Shift+Tab wrap around inside `panel`: from the last control to the first and back, into
 * it when focus is outside (e.g. fell to <body>), and onto the panel itself when it has no control.
 */
function trapTab(event: KeyboardEvent, panel: HTMLElement): void {
  const items = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  const first = items[0];
  const last = items.at(-1);
  const active = document.activeElement;
  let target: HTMLElement | undefined = panel;
  if (first) {
    if (!panel.contains(active)) target = event.shiftKey ? last : first;
    else if (event.shiftKey) target = active === first || active === panel ? last : undefined;
    else target = active === last ? first : undefined;
  }
  if (!target) return;
  event.preventDefault();
  target.focus();
}

/**
 * A modal dialog: labelled by its title, keeps keyboard focus inside (Tab and Shift+Tab wrap),
 * closes on Escape when it may be closed, and gives focus back to where it was when it goes.
 */
export function Dialog({ title, children, onClose, size = 'md', describedBy, testId }: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const onCloseRef = useLatest(onClose);

  useEffect(() => {
    const node = panel.current;
    if (!node) return;
    const previous = document.activeElement;
    if (!node.contains(previous)) {
      (node.querySelector<HTMLElement>('[data-autofocus]') ?? node.querySelector<HTMLElement>(FOCUSABLE) ?? node).focus();
    }
    openDialogs.push(node);
    // Listening on the document: focus may have fallen to <body> (e.g. a button that became
    // disabled), and the keys must still work. Only the topmost dialog answers.
    const onKeyDown = (event: KeyboardEvent) => {
      if (openDialogs.at(-1) !== node) return;
      if (event.key === 'Tab') trapTab(event, node);
      else if (event.key === 'Escape' && onCloseRef.current) {
        event.preventDefault();
        onCloseRef.current();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      openDialogs.splice(openDialogs.indexOf(node), 1);
      if (previous instanceof HTMLElement && document.contains(previous)) previous.focus();
    };
  }, [onCloseRef]);

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center p-3 sm:items-center sm:p-6">
      <div className="absolute inset-0 bg-slate-900/50 backdrop-blur-sm" aria-hidden="true" onClick={() => onCloseRef.current?.()} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        data-testid={testId}
        className={`relative flex max-h-[92vh] w-full ${widths[size]} flex-col overflow-hidden rounded-2xl bg-white shadow-2xl ring-1 ring-slate-900/5 focus:outline-none`}
      >
        <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-5 pt-5 pb-3 sm:px-6">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          {onClose && (
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="-mr-2 rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60"
            >
              <span aria-hidden="true" className="block text-xl leading-none">
                ×
              </span>
            </button>
          )}
        </div>
        <div className="overflow-y-auto px-5 py-4 sm:px-6">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
