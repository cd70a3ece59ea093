/**
 * The question-set editor: the sets in tile order (sets unlock by index, one after another), and
 * the chosen set's form with a live Markdown preview. Saving checks the set with the catalogue's
 * rules on the server and candidates see the change at once. A set that interviews used is
 * archived rather than deleted.
 */
import { useState } from 'react';
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { Button } from '../../../components/button';
import { loadData } from '../../../lib/load-data';
import { fetchQuestionSets, type AdminQuestionSet } from '../admin-api';
import { adminSecretFor } from '../admin-secret';
import { adminTexts } from '../format';
import { AdminError, AdminLoadError, AdminPageHeader } from '../page-parts';
import { useFetcherDone } from '../use-fetcher-done';
import { runQuestionSetChange, type QuestionSetChange, type QuestionSetChangeResult } from './question-sets-actions';
import { draftOf, emptyDraft, inputOf, type SetDraft } from './set-draft';
import { SetEditor } from './set-editor';
import { TileOrder } from './tile-order';

const TITLE = 'Question Sets';
const TEXTS = adminTexts('Failed to fetch question sets', 'An error occurred while fetching question sets.');

export async function loader({ params }: LoaderFunctionArgs) {
  const secret = await adminSecretFor(params);
  return secret === null ? null : loadData(fetchQuestionSets(secret), TEXTS);
}

export async function action({ params, request }: ActionFunctionArgs): Promise<QuestionSetChangeResult | null> {
  const secret = await adminSecretFor(params);
  return secret === null ? null : runQuestionSetChange(secret, (await request.json()) as QuestionSetChange);
}

type Selection = { id: number | null; draft: SetDraft } | null;

/** The chosen set: its form and its delete (or archive) button, or why there is none. */
function SetPanel({ selection, set, busy, onChange, onSave, onRemove }: {
  selection: Selection;
  set: AdminQuestionSet | null;
  busy: boolean;
  onChange: (draft: SetDraft) => void;
  onSave: () => void;
  onRemove: (set: AdminQuestionSet) => void;
}) {
  if (selection === null) return <p className="text-gray-600">Choose a set to edit, or create a new one.</p>;
  if (set?.archivedAt) return <p className="text-gray-600">This set is archived: candidates no longer see it, and its interviews keep their topic.</p>;
  return (
    <>
      <SetEditor draft={selection.draft} onChange={onChange} onSubmit={onSave} busy={busy} isNew={selection.id === null} />
      {set && (
        <Button variant="danger" onClick={() => onRemove(set)} disabled={busy} className="mt-3">
          {set.ratings > 0 ? 'Archive set' : 'Delete set'}
        </Button>
      )}
    </>
  );
}

export function Component() {
  const sets = useLoaderData<typeof loader>();
  const fetcher = useFetcher<QuestionSetChangeResult | null>();
  const [selection, setSelection] = useState<Selection>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const busy = fetcher.state !== 'idle';
  const error = busy ? null : fetcher.data?.ok === false ? fetcher.data.error : null;

  useFetcherDone(fetcher, (answer) => {
    if (!answer.ok) return;
    setNotice(answer.notice);
    setSelection(answer.saved ? { id: answer.saved.id, draft: draftOf(answer.saved) } : null);
  });

  if (sets === null) return <h1 className="mb-4 text-2xl font-bold">{TITLE}</h1>;
  const selectedSet = sets.find((s) => s.id === selection?.id) ?? null;
  const choose = (next: Selection) => {
    setNotice(null);
    setSelection(next);
  };
  const startNew = () => choose({ id: null, draft: emptyDraft(Math.max(0, ...sets.filter((s) => !s.archivedAt).map((s) => s.index)) + 1) });
  const send = (change: QuestionSetChange) => {
    setNotice(null);
    void fetcher.submit(change, { method: 'post', encType: 'application/json' });
  };
  const save = () => {
    if (!selection) return;
    const input = inputOf(selection.draft);
    if (typeof input === 'string') setNotice(input);
    else send({ intent: 'save', id: selection.id, set: input });
  };
  const remove = (set: AdminQuestionSet) => {
    const what = set.ratings > 0 ? 'archive' : 'delete';
    if (window.confirm(`Are you sure you want to ${what} the set "${set.name}"? Sets that interviews used are archived, not deleted.`)) send({ intent: 'delete', id: set.id, name: set.name });
  };

  return (
    <section>
      <AdminPageHeader title={TITLE}>
        <Button onClick={startNew} disabled={busy}>
          New set
        </Button>
      </AdminPageHeader>
      <AdminError error={error} />
      {notice !== null && error === null && (
        <p role="status" className="mb-4 rounded bg-green-50 p-3 text-green-800">
          {notice}
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
        <div>
          <h2 className="mb-2 font-semibold">Tile order</h2>
          <TileOrder sets={sets} selected={selection?.id ?? null} onSelect={(set) => choose({ id: set.id, draft: draftOf(set) })} />
        </div>
        <div>
          <SetPanel selection={selection} set={selectedSet} busy={busy} onChange={(draft) => selection && setSelection({ ...selection, draft })} onSave={save} onRemove={remove} />
        </div>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <AdminLoadError header={<AdminPageHeader title={TITLE} />} />;
}
