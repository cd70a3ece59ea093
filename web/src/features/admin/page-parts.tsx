import type { ReactNode } from 'react';
import { Form, useNavigation, useRouteError } from 'react-router';
import { Button } from '../../components/button';
import { routeErrorSentence } from '../../lib/load-data';

/** Every admin list page's heading row: the title and, on the right, the page's main action. */
export function AdminPageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-4">
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
    </div>
  );
}

/** The failure text on show (docs/product-rules.md, Admin area), or nothing; smaller inside a dialog. */
export function AdminError({ error, inDialog = false }: { error: string | null | undefined; inDialog?: boolean }) {
  if (error === null || error === undefined) return null;
  return (
    <p role="alert" className={`rounded bg-red-50 text-red-700 ${inDialog ? 'mb-3 p-2 text-sm' : 'mb-4 p-3'}`}>
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

/** A table's header row; `dense` for the chart tables. */
export function HeaderRow({ headers, dense = false }: { headers: readonly string[]; dense?: boolean }) {
  return (
    <thead>
      <tr>
        {headers.map((header) => (
          <th key={header} scope="col" className={`border-b border-gray-200 px-3 font-semibold ${dense ? 'py-1' : 'py-2'}`}>
            {header}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A dialog's last row: the button that closes it (`Close`, or `Cancel` before a change), then its own buttons. */
export function DialogFooter({
  onClose,
  closeLabel = 'Close',
  children,
}: {
  onClose: () => void;
  closeLabel?: string;
  children?: ReactNode;
}) {
  return (
    <div className="mt-4 flex justify-end gap-2">
      <Button variant="secondary" onClick={onClose}>
        {closeLabel}
      </Button>
      {children}
    </div>
  );
}

/**
 * The next page of a paged list is a GET form: the address gains `?pages=n+1` and the page's
 * loader fetches one page more (docs/product-rules.md, Pagination).
 */
export function LoadMore({ pages, path, label }: { pages: number; path: string; label: string }) {
  const navigation = useNavigation();
  if (navigation.state === 'loading' && navigation.location.pathname.startsWith(path))
    return <p className="p-3 text-gray-500">Loading...</p>;
  return (
    <Form preventScrollReset className="mt-4">
      <input type="hidden" name="pages" value={pages + 1} />
      <Button type="submit" variant="secondary">
        {label}
      </Button>
    </Form>
  );
}
