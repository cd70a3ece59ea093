import { lazy, Suspense } from 'react';
import type { MarkdownProps } from './markdown';

const load = () => import('./markdown');
const MarkdownImpl = lazy(load);

/** Starts downloading the Markdown code early (e.g. while a rating is still being prepared). */
export function preloadMarkdown(): void {
  void load();
}

/** Use this everywhere: it keeps react-markdown out of the first screen's JavaScript. */
export function Markdown(props: MarkdownProps) {
  return (
    <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
      <MarkdownImpl {...props} />
    </Suspense>
  );
}
