import { useState, type FormEvent } from 'react';
import { createEmail, deleteEmail, fetchEmails, fetchUserData, setPlan, type ApiResult, type EmailAccount } from './admin-api';
import { downloadBlob } from './csv-exports';
import { EmailCreditsDialog } from './email-credits-dialog';
import { EraseUserDialog } from './erase-user-dialog';
import { failureText } from './format';
import { useAdminList } from './use-admin-list';
import { AdminError, AdminPageHeader } from './page-parts';

const BUTTON = 'rounded px-3 py-1 text-sm font-medium text-white disabled:cursor-not-allowed disabled:opacity-50';

/** docs/product-rules.md, Admin area's texts for the three actions; null on success. */
function createFailure(result: ApiResult<unknown>): string | null {
  if (result.ok) return null;
  return result.kind === 'http'
    ? `Failed to create email: ${result.serverError ?? 'Could not create email.'}`
    : 'An error occurred while creating the email.';
}
function planFailure(result: ApiResult<unknown>): string | null {
  if (result.ok) return null;
  return result.kind === 'http' ? 'Failed to update plan.' : 'An error occurred while updating the plan.';
}
function deleteFailure(result: ApiResult<unknown>): string | null {
  if (result.ok) return null;
  return result.kind === 'http' ? 'Failed to delete email.' : 'An error occurred while deleting the email.';
}

const EMAILS_TEXTS = { failed: 'Failed to fetch emails', otherwise: 'An error occurred while fetching emails.' };

/** docs/product-rules.md, Admin area: list, create inline, toggle the plan, delete; every action reloads the list. */
export function EmailsPage() {
  const { secret, items: emails, loading, error, busy, act } = useAdminList(fetchEmails, EMAILS_TEXTS);
  const [creating, setCreating] = useState(false);
  const [draft, setDraft] = useState('');
  const [credits, setCredits] = useState<EmailAccount | null>(null);
  const [erasing, setErasing] = useState<string | null>(null);
  const reload = () => void act(async () => null);

  // A data request: everything stored about the person, as one JSON file.
  const exportData = (account: EmailAccount) =>
    void act(async (key) => {
      const result = await fetchUserData(key, account.email);
      if (!result.ok) return failureText(result, 'Failed to export the data', 'An error occurred while exporting the data.');
      downloadBlob(`user-data-${account.email}.json`, new Blob([JSON.stringify(result.data, null, 2)], { type: 'application/json' }));
      return null;
    });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const email = draft.trim();
    if (email === '') {
      window.alert('Email address cannot be empty.');
      return;
    }
    const created = await act(async (key) => createFailure(await createEmail(key, email)));
    if (created) {
      setCreating(false);
      setDraft('');
    }
  };

  const cancel = () => {
    setCreating(false);
    setDraft('');
  };

  const togglePlan = (account: EmailAccount) =>
    void act(async (key) => planFailure(await setPlan(key, account.email, account.subscriptionId === null)));

  const remove = (account: EmailAccount) => {
    if (!window.confirm(`Are you sure you want to delete ${account.email}? This action cannot be undone.`)) return;
    void act(async (key) => deleteFailure(await deleteEmail(key, account.email)));
  };

  if (secret === null) {
    return (
      <section>
        <h1 className="mb-4 text-2xl font-bold">Manage Emails</h1>
        <p>Please authenticate through an admin page with a login prompt.</p>
      </section>
    );
  }

  return (
    <section>
      <AdminPageHeader title="Manage Emails">
        <button type="button" onClick={() => setCreating(true)} disabled={creating} className={`${BUTTON} bg-blue-600 px-4 py-2 hover:bg-blue-700`}>
          Create Email
        </button>
      </AdminPageHeader>
      <AdminError error={error} />
      {/* The inline row's form lives outside the table (a form may not wrap table rows); inputs join it by id. */}
      <form id="create-email-form" noValidate onSubmit={(event) => void save(event)} />
      <table className="w-full border-collapse bg-white text-left text-sm">
        <thead>
          <tr>
            {['Email', 'Plan', 'Limit', 'Used', 'Remaining', 'Actions'].map((header) => (
              <th key={header} scope="col" className="border-b border-gray-200 px-3 py-2 font-semibold">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {creating && (
            <tr className="border-b border-gray-100 bg-blue-50">
              <td className="px-3 py-2">
                <input
                  form="create-email-form"
                  type="email"
                  autoFocus
                  aria-label="New email address"
                  placeholder="name@example.com"
                  value={draft}
                  onChange={(event) => setDraft(event.target.value)}
                  onKeyDown={(event) => event.key === 'Escape' && cancel()}
                  className="w-full rounded border border-gray-300 px-2 py-1"
                />
              </td>
              <td className="px-3 py-2" colSpan={4} />
              <td className="flex gap-2 px-3 py-2">
                <button type="submit" form="create-email-form" disabled={busy} className={`${BUTTON} bg-green-700 hover:bg-green-800`}>
                  Save
                </button>
                <button type="button" onClick={cancel} className="rounded bg-gray-200 px-3 py-1 text-sm hover:bg-gray-300">
                  Cancel
                </button>
              </td>
            </tr>
          )}
          {emails.map((account) => {
            const pro = account.subscriptionId !== null;
            return (
              <tr key={account.email} className="border-b border-gray-100">
                <td className="px-3 py-2">{account.email}</td>
                <td className="px-3 py-2">{pro ? 'Pro' : 'Free'}</td>
                <td className="px-3 py-2">
                  {account.limit}
                  {account.sessionLimit !== null && <span className="text-gray-500"> (own)</span>}
                </td>
                <td className="px-3 py-2">{account.sessionsUsed}</td>
                <td className="px-3 py-2">{account.remaining}</td>
                <td className="flex flex-wrap gap-2 px-3 py-2">
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => togglePlan(account)}
                    className={`${BUTTON} ${pro ? 'bg-gray-600 hover:bg-gray-700' : 'bg-indigo-600 hover:bg-indigo-700'}`}
                  >
                    {pro ? 'Make Free' : 'Make Pro'}
                  </button>
                  <button type="button" disabled={busy} onClick={() => remove(account)} className={`${BUTTON} bg-red-600 hover:bg-red-700`}>
                    Delete
                  </button>
                  <button type="button" disabled={busy} onClick={() => setCredits(account)} aria-label={`Credits for ${account.email}`} className={`${BUTTON} bg-blue-700 hover:bg-blue-800`}>
                    Credits
                  </button>
                  <button type="button" disabled={busy} onClick={() => exportData(account)} aria-label={`Export data of ${account.email}`} className={`${BUTTON} bg-slate-600 hover:bg-slate-700`}>
                    Export data
                  </button>
                  <button type="button" disabled={busy} onClick={() => setErasing(account.email)} aria-label={`Erase data of ${account.email}`} className={`${BUTTON} bg-red-800 hover:bg-red-900`}>
                    Erase data
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {loading && <p className="p-3 text-gray-500">Loading...</p>}
      {!loading && emails.length === 0 && error === null && <p className="p-3 text-gray-500">No emails yet.</p>}
      {credits !== null && <EmailCreditsDialog secret={secret} account={credits} onClose={() => setCredits(null)} onChanged={reload} />}
      {erasing !== null && <EraseUserDialog secret={secret} email={erasing} onClose={() => setErasing(null)} onErased={reload} />}
    </section>
  );
}

// Route module exports (pages.tsx); the list still loads itself (use-admin-list.ts) until it moves to its loader.
export const loader = () => null;
export { EmailsPage as Component };
