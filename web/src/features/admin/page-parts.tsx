import type { ReactNode } from 'react';
import { useRouteError } from 'react-router';
import { routeErrorSentence } from '../../lib/load-data';

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
export function AdminError({ error }: { error: string | null | undefined }) {
  if (error === null || error === undefined) return null;
  return (
    <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-red-700">
      {error}
    </p>
  );
}

/**
 * A page's `ErrorBoundary`: its heading row and the failed load's sentence (thrown by the loader
 * with lib/load-data.ts). Anything else is a programming error and goes on to the app's error page.
 */
export function AdminLoadError({ header }: { header: ReactNode }) {
  const error = useRouteError();
  const sentence = routeErrorSentence(error);
  if (sentence === null) throw error;
  return (
    <section>
      {header}
      <AdminError error={sentence} />
    </section>
  );
}

/** A table's header row. */
export function HeaderRow({ headers }: { headers: readonly string[] }) {
  return (
    <thead>
      <tr>
        {headers.map((header) => (
          <th key={header} scope="col" className="border-b border-gray-200 px-3 py-2 font-semibold">
            {header}
          </th>
        ))}
      </tr>
    </thead>
  );
}
