import { useEffect, useRef } from 'react';

/**
 * Calls `onDone` with the answer once a submission this component saw has finished (action and
 * reload): for what a screen does after a change, such as closing a row or choosing the saved item.
 */
export function useFetcherDone<T>(fetcher: { state: 'idle' | 'loading' | 'submitting'; data: T | undefined }, onDone: (data: T) => void): void {
  const pending = useRef(false);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;
  useEffect(() => {
    if (fetcher.state !== 'idle') {
      pending.current = true;
      return;
    }
    if (!pending.current || fetcher.data === undefined) return;
    pending.current = false;
    onDoneRef.current(fetcher.data);
  }, [fetcher.state, fetcher.data]);
}
