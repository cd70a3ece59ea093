import { useCallback, useState } from 'react';
import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs } from 'react-router';
import { Button } from '../../components/button';
import { loadData } from '../../lib/load-data';
import { fetchEmails, type EmailAccount } from './admin-api';
import { eventPagesOf, loadPages } from './events-pages';
import { adminSessionFor } from './admin-session';
import { EmailCreditsDialog } from './email-credits-dialog';
import { runEmailAction, type EmailActionResult } from './emails-actions';
import { CreateEmailRow, EmailRow, useEmailActions } from './emails-table';
import { EraseUserDialog } from './erase-user-dialog';
import { adminTexts } from './format';
import { AdminError, AdminLoadError, AdminPageHeader, HeaderRow, LoadMore } from './page-parts';
import { ScrollX } from './scroll-x';

const TEXTS = adminTexts('Failed to fetch emails', 'An error occurred while fetching emails.');
const HEADERS = ['Email', 'Plan', 'Limit', 'Used', 'Remaining', 'Actions'];
const TITLE = 'Manage Emails';

/** Accounts per request; the address says how many pages are on show (`?pages=`), as on Recent Events. */
export const EMAILS_PAGE_SIZE = 100;

export async function loader({ params, request }: LoaderFunctionArgs) {
  const session = await adminSessionFor(params);
  if (session === null) return null;
  const pages = eventPagesOf(new URL(request.url));
  const list = await loadData(
    loadPages<EmailAccount>((last) => fetchEmails(session, { limit: EMAILS_PAGE_SIZE, after: last?.email }), pages, EMAILS_PAGE_SIZE),
    TEXTS,
  );
  return { ...list, pages };
}

/** Every change (emails-actions.ts); the router reloads the list after it. */
export async function action({ params, request }: ActionFunctionArgs): Promise<EmailActionResult | null> {
  const session = await adminSessionFor(params);
  return session === null ? null : runEmailAction(session, await request.formData());
}

/** A data export changes nothing: no reload after it. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return formData?.get('intent') === 'export' ? false : defaultShouldRevalidate;
}

/** docs/product-rules.md, Admin area: list, create inline, toggle the plan, delete; credits, data export and erasure. */
export function Component() {
  const data = useLoaderData<typeof loader>();
  const accounts = data?.items ?? null;
  const fetcher = useEmailActions();
  const [creating, setCreating] = useState(false);
  const [credits, setCredits] = useState<EmailAccount | null>(null);
  const [erasing, setErasing] = useState<string | null>(null);
  const stopCreating = useCallback(() => setCreating(false), []);

  if (accounts === null) {
    return (
      <section>
        <h1 className="mb-4 text-2xl font-bold">{TITLE}</h1>
        <p>Please authenticate through an admin page with a login prompt.</p>
      </section>
    );
  }
  return (
    <section>
      <AdminPageHeader title={TITLE}>
        <Button onClick={() => setCreating(true)} disabled={creating}>
          Create Email
        </Button>
      </AdminPageHeader>
      <AdminError error={fetcher.data?.ok === false ? fetcher.data.error : null} />
      {fetcher.data?.ok === true && fetcher.data.intent === 'signout' && (
        <p role="status" className="mb-3 rounded border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {fetcher.data.message}
        </p>
      )}
      {/* On a narrow screen the table scrolls inside its own box; the page keeps the screen's width. */}
      <ScrollX label="Emails">
        <table className="w-full border-collapse bg-white text-left text-sm">
          <HeaderRow headers={HEADERS} />
          <tbody>
            {creating && <CreateEmailRow onDone={stopCreating} />}
            {accounts.map((account) => (
              <EmailRow
                key={account.email}
                account={account}
                onCredits={() => setCredits(account)}
                onErase={() => setErasing(account.email)}
              />
            ))}
          </tbody>
        </table>
      </ScrollX>
      {accounts.length === 0 && <p className="p-3 text-gray-500">No emails yet.</p>}
      {data?.hasMore === true && <LoadMore pages={data.pages} path="/admin/emails" label="Load more emails" />}
      {credits !== null && <EmailCreditsDialog account={credits} onClose={() => setCredits(null)} />}
      {erasing !== null && <EraseUserDialog email={erasing} onClose={() => setErasing(null)} />}
    </section>
  );
}

export function ErrorBoundary() {
  return <AdminLoadError header={<AdminPageHeader title={TITLE} />} />;
}
