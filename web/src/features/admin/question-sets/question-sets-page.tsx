/**
 * The question-set editor: the sets in tile order (sets unlock by index, one after another), and
 * the chosen set's form with a live Markdown preview. Saving checks the set with the catalogue's
 * rules on the server and candidates see the change at once. A set that interviews used is
 * archived rather than deleted.
 */
import { useState, type ReactNode } from 'react';
import {
  useFetcher,
  useLoaderData,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { Button } from '../../../components/button';
import { dataOr, loadData } from '../../../lib/load-data';
import { fetchQuestionSets, fetchSetAssistant, type AdminQuestionSet, type SetAssistant } from '../admin-api';
import { adminSessionFor } from '../admin-session';
import { adminTexts } from '../format';
import { ConfirmDialog } from '../confirm-dialog';
import { AdminError, AdminLoadError, AdminPageHeader } from '../page-parts';
import { useFetcherDone } from '../use-fetcher-done';
import {
  isSetAssist,
  runQuestionSetChange,
  runSetAssist,
  type QuestionSetChange,
  type QuestionSetChangeResult,
  type SetAssist,
  type SuggestOutcome,
  type TryOutcome,
} from './question-sets-actions';
import { draftOf, emptyDraft, inputOf, type SetDraft } from './set-draft';
import { SetEditor } from './set-editor';
import { TileOrder } from './tile-order';

const TITLE = 'Question Sets';
const TEXTS = adminTexts('Failed to fetch question sets', 'An error occurred while fetching question sets.');

/** Without an answer the editor works on; only its language-model helpers say they cannot tell. */
const ASSISTANT_UNKNOWN: SetAssistant = {
  languageModel: null,
  unavailable: 'The server did not say whether a language model is configured; reload the page to ask again.',
  callsPerHour: 0,
};

export async function loader({ params }: LoaderFunctionArgs) {
  const session = await adminSessionFor(params);
  if (session === null) return null;
  const [sets, assistant] = await Promise.all([
    loadData(fetchQuestionSets(session), TEXTS),
    dataOr(fetchSetAssistant(session), ASSISTANT_UNKNOWN, 'Question-set assistant request failed:'),
  ]);
  return { sets, assistant };
}

export async function action({
  params,
  request,
}: ActionFunctionArgs): Promise<QuestionSetChangeResult | TryOutcome | SuggestOutcome | null> {
  const session = await adminSessionFor(params);
  if (session === null) return null;
  const body = (await request.json()) as QuestionSetChange | SetAssist;
  return isSetAssist(body) ? runSetAssist(session, body) : runQuestionSetChange(session, body);
}

/** Trying an answer and asking for phrasings change nothing: no reload after them. */
export function shouldRevalidate({ json, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  const intent = json !== null && typeof json === 'object' && 'intent' in json ? json.intent : null;
  return intent === 'try' || intent === 'suggest' ? false : defaultShouldRevalidate;
}

type Selection = { id: number | null; draft: SetDraft } | null;

/** The chosen set: its form and its delete (or archive) button, or why there is none. */
function SetPanel({
  selection,
  set,
  assistant,
  busy,
  message,
  onChange,
  onSave,
  onRemove,
}: {
  selection: Selection;
  set: AdminQuestionSet | null;
  assistant: SetAssistant;
  busy: boolean;
  /** The outcome of the last save or delete, shown beside its buttons. */
  message: ReactNode;
  onChange: (draft: SetDraft) => void;
  onSave: () => void;
  onRemove: (set: AdminQuestionSet) => void;
}) {
  if (selection === null)
    return (
      <>
        {message}
        <p className="text-gray-600">Choose a set to edit, or create a new one.</p>
      </>
    );
  if (set?.archivedAt)
    return <p className="text-gray-600">This set is archived: candidates no longer see it, and its interviews keep their topic.</p>;
  return (
    <>
      <SetEditor
        draft={selection.draft}
        assistant={assistant}
        onChange={onChange}
        onSubmit={onSave}
        busy={busy}
        isNew={selection.id === null}
      />
      <div className="mt-3">{message}</div>
      {set && (
        <Button variant="danger" onClick={() => onRemove(set)} disabled={busy} className="mt-3">
          {set.ratings > 0 ? 'Archive set' : 'Delete set'}
        </Button>
      )}
    </>
  );
}

/** A change's outcome: the failure sentence, or the notice. */
function Outcome({ error, notice }: { error: string | null; notice: string | null }) {
  if (error !== null) return <AdminError error={error} />;
  if (notice === null) return null;
  return (
    <p role="status" className="mb-4 rounded bg-green-50 p-3 text-green-800">
      {notice}
    </p>
  );
}

export function Component() {
  const data = useLoaderData<typeof loader>();
  const sets = data?.sets ?? null;
  const fetcher = useFetcher<QuestionSetChangeResult | null>();
  const [selection, setSelection] = useState<Selection>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState<AdminQuestionSet | null>(null);
  /** Where the last change came from: its message is shown next to that control. */
  const [origin, setOrigin] = useState<'order' | 'panel'>('panel');
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
    setOrigin(change.intent === 'move' ? 'order' : 'panel');
    void fetcher.submit(change, { method: 'post', encType: 'application/json' });
  };
  const move = (set: AdminQuestionSet, index: number) => send({ intent: 'move', id: set.id, name: set.name, index });
  const save = () => {
    if (!selection) return;
    const input = inputOf(selection.draft);
    setOrigin('panel');
    if (typeof input === 'string') setNotice(input);
    else send({ intent: 'save', id: selection.id, set: input });
  };
  const remove = (set: AdminQuestionSet) => setRemoving(set);

  return (
    <section>
      <AdminPageHeader title={TITLE}>
        <Button onClick={startNew} disabled={busy}>
          New set
        </Button>
      </AdminPageHeader>
      <div className="grid gap-6 lg:grid-cols-[20rem_1fr]">
        <div>
          <h2 className="mb-2 font-semibold">Tile order</h2>
          {origin === 'order' && <Outcome error={error} notice={notice} />}
          <TileOrder
            sets={sets}
            selected={selection?.id ?? null}
            busy={busy}
            onSelect={(set) => choose({ id: set.id, draft: draftOf(set) })}
            onMove={move}
          />
        </div>
        <div>
          <SetPanel
            selection={selection}
            set={selectedSet}
            assistant={data?.assistant ?? ASSISTANT_UNKNOWN}
            busy={busy}
            message={origin === 'panel' ? <Outcome error={error} notice={notice} /> : null}
            onChange={(draft) => selection && setSelection({ ...selection, draft })}
            onSave={save}
            onRemove={remove}
          />
        </div>
      </div>
      {removing && (
        <ConfirmDialog
          title={removing.ratings > 0 ? 'Archive question set' : 'Delete question set'}
          question={`Are you sure you want to ${removing.ratings > 0 ? 'archive' : 'delete'} the set "${removing.name}"?`}
          removes={
            removing.ratings > 0
              ? 'Interviews used this set, so it is archived, not deleted: candidates no longer see it, their history keeps its topic, and the later sets move up one place.'
              : 'No interview used this set, so it is deleted for good, and the later sets move up one place.'
          }
          confirmLabel={removing.ratings > 0 ? 'Archive set' : 'Delete set'}
          onConfirm={() => send({ intent: 'delete', id: removing.id, name: removing.name })}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <AdminLoadError header={<AdminPageHeader title={TITLE} />} />;
}
