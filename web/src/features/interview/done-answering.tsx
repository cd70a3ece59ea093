import { useEffect } from 'react';
import { Button } from '../../components/button';
import { useLatest } from '../../lib/use-latest';

/**
 * docs/product-rules.md, End of a spoken answer: while a spoken answer is being heard, the
 * candidate can end it at once with **Done** or the Enter key (anywhere but a text box, a button
 * or a link, which keep their own Enter), instead of waiting for the pause that would end it.
 */
export function DoneAnswering({ onDone }: { onDone: () => void }) {
  const done = useLatest(onDone);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing || event.defaultPrevented) return;
      if (event.target instanceof Element && event.target.closest('textarea, input, select, button, a, [contenteditable="true"]')) return;
      event.preventDefault();
      done.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [done]);
  return (
    <Button variant="secondary" onClick={() => done.current()} aria-keyshortcuts="Enter">
      Done
    </Button>
  );
}
