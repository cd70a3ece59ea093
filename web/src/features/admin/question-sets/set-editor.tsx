import { useId, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { Markdown } from '../../../components/lazy-markdown';
import type { SetDraft } from './set-draft';

const FIELD = 'rounded border border-gray-300 px-2 py-1';

/** The form of one set, with a live preview of its model answers as candidates see them. */
export function SetEditor({
  draft,
  onChange,
  onSubmit,
  busy,
  isNew,
}: {
  draft: SetDraft;
  onChange: (draft: SetDraft) => void;
  onSubmit: () => void;
  busy: boolean;
  isNew: boolean;
}) {
  const id = useId();
  const set = <K extends keyof SetDraft>(key: K, value: SetDraft[K]) => onChange({ ...draft, [key]: value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label={isNew ? 'New question set' : `Edit ${draft.name}`}>
      <div className="flex flex-wrap gap-3">
        <label className="flex grow flex-col text-sm">
          Topic name
          <input value={draft.name} onChange={(e) => set('name', e.target.value)} className={FIELD} />
        </label>
        <label className="flex w-24 flex-col text-sm">
          Index
          <input type="number" min={1} value={draft.index} onChange={(e) => set('index', e.target.value)} className={FIELD} />
        </label>
      </div>
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={draft.isPremium} onChange={(e) => set('isPremium', e.target.checked)} />
          Premium (Pro only)
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={draft.requiresFeedback} onChange={(e) => set('requiresFeedback', e.target.checked)} />
          Requires feedback on the topic first
        </label>
      </div>
      <label className="flex flex-col text-sm">
        Instructions for the interviewer
        <textarea rows={2} value={draft.instructions} onChange={(e) => set('instructions', e.target.value)} className={FIELD} />
      </label>
      <label className="flex flex-col text-sm">
        Questions (one per line)
        <textarea rows={4} value={draft.questions} onChange={(e) => set('questions', e.target.value)} className={FIELD} />
      </label>
      <div className="grid gap-3 lg:grid-cols-2">
        <label className="flex flex-col text-sm">
          Model answers (Markdown: one &quot;### n. question&quot; section per question, each with &quot;**Key points:** a; b&quot;)
          <textarea rows={16} value={draft.modelAnswers} onChange={(e) => set('modelAnswers', e.target.value)} className={`${FIELD} font-mono text-xs`} />
        </label>
        {/* Focusable: a scrolling region must be reachable by keyboard. Code wraps instead of scrolling. */}
        <section
          aria-labelledby={`${id}-preview`}
          tabIndex={0}
          className="max-h-[28rem] overflow-auto rounded border border-gray-200 bg-white p-3 [&_pre]:break-words [&_pre]:whitespace-pre-wrap"
        >
          <h3 id={`${id}-preview`} className="mb-2 text-sm font-semibold text-gray-600">
            Preview
          </h3>
          <div data-testid="model-answers-preview">
            <Markdown>{draft.modelAnswers}</Markdown>
          </div>
        </section>
      </div>
      <div>
        <Button type="submit" disabled={busy}>
          {isNew ? 'Create set' : 'Save set'}
        </Button>
      </div>
    </form>
  );
}
