import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A ref that always holds the latest `value`, for callbacks created once (a document listener,
 * the session controller) that must call the newest prop. It is written after render, in a layout
 * effect, so render stays pure (react-hooks/refs); read it only in effects and handlers.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
