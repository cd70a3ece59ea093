import { useEffect, useRef } from 'react';
import { useLatest } from '../../lib/use-latest';

/**
 * Calls `onDone` with the answer once a submission this component saw has finished (action and
 * reload): for what a screen does after a change, such as closing a row or choosing the saved item.
 */
export function useFetcherDone<T>(
  fetcher: { state: 'idle' | 'loading' | 'submitting'; data: T | null | undefined },
  onDone: (data: T) => void,
): void {
  const pending = useRef(false);
  const onDoneRef = useLatest(onDone);
  useEffect(() => {
    if (fetcher.state !== 'idle') {
      pending.current = true;
      return;
    }
    if (!pending.current) return;
    pending.current = false;
    // No answer: the action found the gate closed (the page is behind the gate then).
    if (fetcher.data !== undefined && fetcher.data !== null) onDoneRef.current(fetcher.data);
  }, [fetcher.state, fetcher.data, onDoneRef]);
}
