/**
 * The question-set editor: the sets in tile order (sets unlock by index, one after another), and
 * the chosen set's form with a live Markdown preview. Saving checks the set with the catalogue's
 * rules on the server and candidates see the change at once. A set that interviews used is
 * archived rather than deleted.
 */
import { useState } from 'react';
import { deleteQuestionSet, fetchQuestionSets, saveQuestionSet, type AdminQuestionSet } from '../admin-api';
import { failureText } from '../format';
import { useAdminList } from '../use-admin-list';
import { draftOf, emptyDraft, inputOf, type SetDraft } from './set-draft';
import { SetEditor } from './set-editor';
import { AdminError, AdminPageHeader } from '../page-parts';

const TEXTS = { failed: 'Failed to fetch question sets', otherwise: 'An error occurred while fetching question sets.' };

type Selection = { id: number | null; draft: SetDraft } | null;

function TileOrder({ sets, selected, onSelect }: { sets: AdminQuestionSet[]; selected: number | null; onSelect: (set: AdminQuestionSet) => void }) {
  return (
    <ol aria-label="Tile order" className="flex flex-col gap-1">
      {sets.map((set) => (
        <li key={set.id}>
          <button
            type="button"
            onClick={() => onSelect(set)}
            aria-current={selected === set.id ? 'true' : undefined}
            className={`w-full rounded border px-3 py-2 text-left text-sm ${selected === set.id ? 'border-blue-700 bg-blue-50' : 'border-gray-200 bg-white hover:bg-gray-50'} ${set.archivedAt ? 'text-gray-500' : ''}`}
          >
            <span className="font-semibold">{set.archivedAt ? 'Archived' : `${set.index}.`}</span> {set.name}
            <span className="block text-xs text-gray-600">
              {set.questions.length} questions · {set.ratings} ratings{set.isPremium ? ' · Premium' : ''}
              {set.requiresFeedback ? ' · Feedback first' : ''}
              {set.editedAt ? ' · edited here' : ''}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}

export function QuestionSetsPage() {
  const { secret, items: sets, loading, error, busy, act } = useAdminList(fetchQuestionSets, TEXTS);
  const [selection, setSelection] = useState<Selection>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const selectedSet = sets.find((s) => s.id === selection?.id) ?? null;

  const select = (set: AdminQuestionSet) => {
    setNotice(null);
    setSelection({ id: set.id, draft: draftOf(set) });
  };
  const startNew = () => {
    setNotice(null);
    const highest = Math.max(0, ...sets.filter((s) => !s.archivedAt).map((s) => s.index));
    setSelection({ id: null, draft: emptyDraft(highest + 1) });
  };

  const save = () => {
    if (!selection) return;
    const input = inputOf(selection.draft);
    if (typeof input === 'string') {
      setNotice(input);
      return;
    }
    void act(async (key) => {
      const result = await saveQuestionSet(key, selection.id, input);
      if (!result.ok) return failureText(result, 'Failed to save the question set', 'An error occurred while saving the question set.');
      setSelection({ id: result.data.id, draft: draftOf(result.data) });
      setNotice(`Saved "${result.data.name}". Candidates see it now.`);
      return null;
    });
  };

  const remove = (set: AdminQuestionSet) => {
    const what = set.ratings > 0 ? 'archive' : 'delete';
    if (!window.confirm(`Are you sure you want to ${what} the set "${set.name}"? Sets that interviews used are archived, not deleted.`)) return;
    void act(async (key) => {
      const result = await deleteQuestionSet(key, set.id);
      if (!result.ok) return failureText(result, 'Failed to delete the question set', 'An error occurred while deleting the question set.');
      setSelection(null);
      setNotice(result.data.outcome === 'archived' ? `Archived "${set.name}": interviews used it, so its history is kept.` : `Deleted "${set.name}".`);
      return null;
    });
  };

  if (secret === null) return <h1 className="mb-4 text-2xl font-bold">Question Sets</h1>;

  return (
    <section>
      <AdminPageHeader title="Question Sets">
        <button type="button" onClick={startNew} disabled={busy} className="rounded bg-blue-600 px-4 py-2 font-medium text-white hover:bg-blue-700 disabled:opacity-50">
          New set
        </button>
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
          {loading && sets.length === 0 ? <p className="text-gray-500">Loading...</p> : <TileOrder sets={sets} selected={selection?.id ?? null} onSelect={select} />}
        </div>
        <div>
          {selection === null ? (
            <p className="text-gray-600">Choose a set to edit, or create a new one.</p>
          ) : selectedSet?.archivedAt ? (
            <p className="text-gray-600">This set is archived: candidates no longer see it, and its interviews keep their topic.</p>
          ) : (
            <>
              <SetEditor draft={selection.draft} onChange={(draft) => setSelection({ ...selection, draft })} onSubmit={save} busy={busy} isNew={selection.id === null} />
              {selectedSet && (
                <button type="button" onClick={() => remove(selectedSet)} disabled={busy} className="mt-3 rounded bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-50">
                  {selectedSet.ratings > 0 ? 'Archive set' : 'Delete set'}
                </button>
              )}
            </>
          )}
        </div>
      </div>
    </section>
  );
}

// Route module exports (pages.tsx); the list still loads itself (use-admin-list.ts) until it moves to its loader.
export const loader = () => null;
export { QuestionSetsPage as Component };
