import type { ReactNode } from 'react';

/** Every admin list page's heading row: the title and, on the right, the page's main action. */
export function AdminPageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-4 flex items-center justify-between gap-4">
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
    </div>
  );
}

/** The failure text on show (docs/product-rules.md, Admin area), or nothing. */
export function AdminError({ error }: { error: string | null }) {
  if (error === null) return null;
  return (
    <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-red-700">
      {error}
    </p>
  );
}
