import { useId, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { Markdown } from '../../../components/lazy-markdown';
import type { SetAssistant } from '../admin-api';
import type { SetDraft } from './set-draft';
import { TryAnswerPanel } from './try-answer-panel';

const FIELD = 'rounded border border-gray-300 px-2 py-1';

/** The form of one set, with a live preview of its model answers as candidates see them. */
export function SetEditor({
  draft,
  assistant,
  onChange,
  onSubmit,
  busy,
  isNew,
}: {
  draft: SetDraft;
  assistant: SetAssistant;
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
          <input
            type="number"
            min={1}
            value={draft.index}
            onChange={(e) => set('index', e.target.value)}
            className={FIELD}
            aria-describedby={`${id}-index-help`}
          />
        </label>
        <p id={`${id}-index-help`} className="basis-full text-xs text-gray-600">
          The set&apos;s place in the tile order (candidates see it as &quot;Set {draft.index || 'n'}&quot;). A taken place moves that set
          and the later ones down one place; the arrows in the tile order move a set too.
        </p>
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
      <JudgingHelp />
      <div className="grid gap-3 lg:grid-cols-2">
        <label className="flex flex-col text-sm">
          Model answers (Markdown: one &quot;### n. question&quot; section per question, each with &quot;**Key points:** a; b&quot;)
          <textarea
            rows={16}
            value={draft.modelAnswers}
            onChange={(e) => set('modelAnswers', e.target.value)}
            className={`${FIELD} font-mono text-xs`}
          />
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
      <TryAnswerPanel draft={draft} assistant={assistant} onModelAnswers={(text) => set('modelAnswers', text)} />
      <div>
        <Button type="submit" disabled={busy}>
          {isNew ? 'Create set' : 'Save set'}
        </Button>
      </div>
    </form>
  );
}

const EXAMPLE = `### 1. What is a closure?

A closure is a function together with the variables of the scope it was created in.

**Key points:** keeps access to its outer variables; created when the function is defined

**Also accepted:**
- keeps access to its outer variables: remembers the variables around it | still sees the outer scope
- created when the function is defined: made at definition time

**Contradicted by:**
- keeps access to its outer variables: copies the outer variables`;

/** How answers are judged, and how to write key points that judge well (docs/question-sets.md). */
function JudgingHelp() {
  return (
    <details className="rounded border border-gray-200 bg-gray-50 p-3 text-sm">
      <summary className="cursor-pointer font-semibold">
        How answers are judged: key points, &quot;Also accepted&quot; and &quot;Contradicted by&quot;
      </summary>
      <div className="mt-2 flex flex-col gap-2 text-gray-800">
        <p>
          Each model answer ends with its <strong>key points</strong>: the ideas a good answer states. A key point is credited only when one
          sentence of the candidate&apos;s own words says it, and that sentence is shown as the evidence.
        </p>
        <p>
          A good key point is one short idea in plain words, the way a candidate would say it (&quot;keeps access to its outer
          variables&quot;), not a textbook definition or a list of several ideas. Two or three words that must appear together are safer
          than one rare term.
        </p>
        <p>
          <strong>Also accepted</strong> (optional) lists other ways to say a point: a bullet per key point naming it by its exact text, a
          colon, then phrasings separated by |. <strong>Contradicted by</strong> (optional) lists statements that get a point wrong, usually
          common misconceptions; an answer that says one does not earn the point.
        </p>
        <p>
          <strong>Try an answer</strong> below shows what the built-in rater credits for an answer, key point by key point, with the
          sentence that earned each; one click adds a sentence of it as an &quot;Also accepted&quot; or &quot;Contradicted by&quot; line,
          and &quot;Suggest phrasings&quot; asks the language model (when one is configured) for drafts to pick from.
        </p>
        <p>Example:</p>
        <pre className="overflow-x-auto whitespace-pre-wrap rounded bg-white p-2 font-mono text-xs">{EXAMPLE}</pre>
      </div>
    </details>
  );
}
