/**
 * A table box that scrolls sideways on a narrow screen and shows that it does (docs/product-rules.md,
 * Admin area): a line above it says so, and a shade marks the edge that has more columns. The box
 * can be focused, so the keyboard scrolls it too.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

interface More {
  left: boolean;
  right: boolean;
}

export function ScrollX({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState<More>({ left: false, right: false });
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const update = () => {
      const left = element.scrollLeft > 1;
      const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setMore((was) => (was.left === left && was.right === right ? was : { left, right }));
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, []);
  const scrolls = more.left || more.right;
  return (
    <div>
      {scrolls && (
        <p className="mb-1 text-xs text-gray-600" data-testid="scroll-hint">
          {more.right ? 'More columns to the right: scroll sideways →' : '← Scroll back for the first columns'}
        </p>
      )}
      <div className="relative">
        <div ref={box} className="overflow-x-auto" role="region" aria-label={label} tabIndex={scrolls ? 0 : undefined}>
          {children}
        </div>
        {more.left && (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 left-0 w-6 bg-gradient-to-r from-gray-900/20 to-transparent"
          />
        )}
        {more.right && (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 right-0 w-6 bg-gradient-to-l from-gray-900/20 to-transparent"
          />
        )}
      </div>
    </div>
  );
}
