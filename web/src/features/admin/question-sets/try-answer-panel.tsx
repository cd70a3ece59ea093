/**
 * "Try an answer" beside the editor: the operator types an answer to one question of the set as
 * drafted and sees what the built-in rater credits, key point by key point with the statement
 * that earned, contradicted or came close to each (and the language-model rater's credits when one
 * is configured and asked). From there one click adds a statement as an "Also accepted" or
 * "Contradicted by" line of that key point to the model answers, and "Suggest phrasings" asks the
 * language model for drafts the operator picks from. Nothing is saved until "Save set".
 */
import { useId, useState } from 'react';
import { useFetcher } from 'react-router';
import type { TriedKeyPoint } from '../../../../../contract/admin-question-sets';
import { addPhrasing, cleanPhrasing, sectionKeyPoints, type PhrasingBlock } from '../../../../../domain/phrasing-lines';
import { Button } from '../../../components/button';
import type { PhrasingSuggestions, SetAssistant, TryAnswerResult } from '../admin-api';
import { AdminError } from '../page-parts';
import type { SetAssist, SuggestOutcome, TryOutcome } from './question-sets-actions';
import { inputOf, type SetDraft } from './set-draft';

const FIELD = 'rounded border border-gray-300 px-2 py-1';

const OUTCOME_TEXT: Record<TriedKeyPoint['outcome'], string> = {
  credited: 'Credited',
  contradicted: 'Contradicted',
  close: 'Close, not credited',
  missed: 'Not said',
};
const OUTCOME_STYLE: Record<TriedKeyPoint['outcome'], string> = {
  credited: 'bg-green-100 text-green-900',
  contradicted: 'bg-red-100 text-red-900',
  close: 'bg-amber-100 text-amber-900',
  missed: 'bg-gray-100 text-gray-800',
};

const percent = (closeness: number | null) => (closeness === null ? '' : ` (${Math.round(closeness * 100)} % close)`);

function questionsOf(draft: SetDraft): string[] {
  return draft.questions
    .split('\n')
    .map((q) => q.trim())
    .filter((q) => q !== '');
}

/** What the language-model rater made of the same answer. */
function LanguageModelVerdict({ judged }: { judged: NonNullable<TryAnswerResult['languageModel']> }) {
  return (
    <div className="rounded border border-indigo-200 bg-indigo-50 p-3 text-sm">
      <p className="font-semibold">
        Language-model rater ({judged.rater}): {judged.verdict} · {judged.score}/100
      </p>
      {judged.covered.length === 0 ? (
        <p>It credited no key point.</p>
      ) : (
        <ul className="mt-1 list-disc pl-5">
          {judged.covered.map((point, i) => (
            <li key={point}>
              {point}. You said: “{judged.evidence[i]}”
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The drafts for one key point, each with a checkbox; only the ones ticked are added. */
function Suggestions({
  suggestions,
  onAdd,
}: {
  suggestions: PhrasingSuggestions;
  onAdd: (lines: Array<{ block: PhrasingBlock; text: string }>) => void;
}) {
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const id = useId();
  const groups: Array<{ block: PhrasingBlock; title: string; items: string[] }> = [
    { block: 'Also accepted', title: 'Also accepted (other ways to say it)', items: suggestions.accepted },
    { block: 'Contradicted by', title: 'Contradicted by (misconceptions)', items: suggestions.contradicted },
  ];
  const key = (block: PhrasingBlock, text: string) => `${block}\n${text}`;
  const toggle = (k: string) =>
    setPicked((old) => {
      const next = new Set(old);
      if (next.has(k)) next.delete(k);
      else next.add(k);
      return next;
    });
  if (suggestions.accepted.length === 0 && suggestions.contradicted.length === 0)
    return <p className="text-sm text-gray-700">The language model suggested nothing new for this key point.</p>;
  return (
    <div className="mt-2 rounded border border-gray-200 bg-white p-2 text-sm" role="group" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} className="font-semibold">
        Suggested by {suggestions.drafter}: tick the ones to add
      </p>
      {groups.map(
        (group) =>
          group.items.length > 0 && (
            <fieldset key={group.block} className="mt-1">
              <legend className="text-gray-700">{group.title}</legend>
              {group.items.map((text) => (
                <label key={text} className="flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={picked.has(key(group.block, text))}
                    onChange={() => toggle(key(group.block, text))}
                  />
                  {text}
                </label>
              ))}
            </fieldset>
          ),
      )}
      <Button
        size="sm"
        variant="secondary"
        className="mt-2"
        disabled={picked.size === 0}
        onClick={() => {
          onAdd(groups.flatMap((g) => g.items.filter((text) => picked.has(key(g.block, text))).map((text) => ({ block: g.block, text }))));
          setPicked(new Set());
        }}
      >
        Add the ticked phrasings
      </Button>
    </div>
  );
}

/** One key point: the rater's outcome and evidence, the one-click lines, and "Suggest phrasings". */
function KeyPointRow({
  point,
  tried,
  statements,
  suggestions,
  suggesting,
  unavailableId,
  unavailable,
  onLine,
  onSuggest,
}: {
  point: string;
  tried: TriedKeyPoint | null;
  statements: string[];
  suggestions: PhrasingSuggestions | null;
  suggesting: boolean;
  unavailableId: string;
  unavailable: string | null;
  onLine: (lines: Array<{ block: PhrasingBlock; text: string }>) => void;
  onSuggest: () => void;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const statement = chosen !== null && statements.includes(chosen) ? chosen : (tried?.said ?? statements[0] ?? '');
  const selectId = useId();
  return (
    <li className="min-w-0 rounded border border-gray-200 bg-white p-3 break-words" aria-label={`Key point: ${point}`}>
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{point}</span>
        {tried && (
          <span className={`rounded px-2 py-0.5 text-xs font-semibold ${OUTCOME_STYLE[tried.outcome]}`}>
            {OUTCOME_TEXT[tried.outcome]}
            {tried.outcome === 'close' || (tried.outcome === 'credited' && (tried.closeness ?? 1) < 1) ? percent(tried.closeness) : ''}
          </span>
        )}
      </p>
      {tried?.said && <p className="mt-1 text-sm text-gray-800">You said: “{tried.said}”</p>}
      <div className="mt-2 flex flex-wrap items-end gap-2 text-sm">
        {statements.length > 1 && (
          <label htmlFor={selectId} className="flex w-full min-w-0 flex-col">
            Statement to add
            <select id={selectId} value={statement} onChange={(e) => setChosen(e.target.value)} className={`${FIELD} w-full min-w-0`}>
              {statements.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        )}
        {statement !== '' && (
          <>
            <Button size="sm" variant="secondary" onClick={() => onLine([{ block: 'Also accepted', text: statement }])}>
              Add as Also accepted
            </Button>
            <Button size="sm" variant="secondary" onClick={() => onLine([{ block: 'Contradicted by', text: statement }])}>
              Add as Contradicted by
            </Button>
          </>
        )}
        <Button
          size="sm"
          variant="ghost"
          aria-disabled={unavailable !== null || suggesting}
          aria-describedby={unavailable !== null ? unavailableId : undefined}
          onClick={() => {
            if (unavailable === null && !suggesting) onSuggest();
          }}
          className={unavailable !== null ? 'text-slate-500' : ''}
        >
          {suggesting ? 'Asking the language model…' : 'Suggest phrasings'}
        </Button>
      </div>
      {suggestions && <Suggestions suggestions={suggestions} onAdd={onLine} />}
    </li>
  );
}

export function TryAnswerPanel({
  draft,
  assistant,
  onModelAnswers,
}: {
  draft: SetDraft;
  assistant: SetAssistant;
  /** The model answers with the added lines (the draft; saved with "Save set"). */
  onModelAnswers: (modelAnswers: string) => void;
}) {
  const id = useId();
  const tryFetcher = useFetcher<TryOutcome | null>();
  const suggestFetcher = useFetcher<SuggestOutcome | null>();
  const [questionText, setQuestion] = useState('1');
  const [answer, setAnswer] = useState('');
  const [withModel, setWithModel] = useState(false);
  const [asked, setAsked] = useState<string | null>(null);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const questions = questionsOf(draft);
  const questionNumber = Math.min(Math.max(1, Number(questionText) || 1), Math.max(1, questions.length));
  const keyPoints = sectionKeyPoints(draft.modelAnswers, questionNumber);
  const trying = tryFetcher.state !== 'idle';
  const outcome = trying ? null : (tryFetcher.data ?? null);
  const tried = outcome?.ok && outcome.questionNumber === questionNumber ? outcome.tried : null;
  const suggestOutcome = suggestFetcher.state === 'idle' ? (suggestFetcher.data ?? null) : null;
  const suggested = suggestOutcome?.ok && suggestOutcome.questionNumber === questionNumber ? suggestOutcome.suggestions : null;
  const unavailable = assistant.unavailable;

  const send = (assist: SetAssist) =>
    void (assist.intent === 'try' ? tryFetcher : suggestFetcher).submit(assist, { method: 'post', encType: 'application/json' });
  const withSet = (then: (set: Exclude<ReturnType<typeof inputOf>, string>) => void) => {
    const set = inputOf(draft);
    if (typeof set === 'string') setMessage({ error: true, text: set });
    // A set still without a topic name can be tried all the same.
    else then({ ...set, name: set.name.trim() || 'Untitled draft' });
  };
  const tryIt = () => {
    setMessage(null);
    if (answer.trim() === '') return setMessage({ error: true, text: 'Type an answer to try first.' });
    withSet((set) => send({ intent: 'try', set, questionNumber, answer, languageModel: withModel && unavailable === null }));
  };
  const suggest = (keyPoint: string) => {
    setMessage(null);
    setAsked(keyPoint);
    withSet((set) => send({ intent: 'suggest', set, questionNumber, keyPoint }));
  };
  const addLines = (point: string, lines: Array<{ block: PhrasingBlock; text: string }>) => {
    let text = draft.modelAnswers;
    for (const line of lines) {
      const edit = addPhrasing(text, questionNumber, point, line.block, line.text);
      if (!edit.ok) return setMessage({ error: true, text: edit.error });
      text = edit.modelAnswers;
    }
    if (text === draft.modelAnswers) {
      return setMessage({ error: false, text: `The model answers already hold that for "${point}".` });
    }
    onModelAnswers(text);
    const blocks = [...new Set(lines.map((l) => `"${l.block}"`))].join(' and ');
    setMessage({
      error: false,
      text: `Added ${lines.length === 1 ? `"${cleanPhrasing(lines[0]?.text ?? '')}"` : `${lines.length} phrasings`} to ${blocks} of "${point}" in the model answers. Try the answer again to see the change; save the set to keep it.`,
    });
  };
  const failure = outcome && !outcome.ok ? outcome.error : suggestOutcome && !suggestOutcome.ok ? suggestOutcome.error : null;

  return (
    <section aria-labelledby={`${id}-title`} className="flex min-w-0 flex-col gap-3 rounded border border-gray-200 bg-gray-50 p-3">
      <h3 id={`${id}-title`} className="font-semibold">
        Try an answer
      </h3>
      <p className="text-sm text-gray-700">
        See how an answer to a question of this draft is judged, before candidates do. Nothing is saved and no credit is spent.
      </p>
      {questions.length === 0 ? (
        <p className="text-sm text-gray-700">Add a question first.</p>
      ) : (
        <>
          <label className="flex flex-col text-sm">
            Question to answer
            <select value={String(questionNumber)} onChange={(e) => setQuestion(e.target.value)} className={`${FIELD} w-full min-w-0`}>
              {questions.map((q, i) => (
                <option key={`${i}-${q}`} value={String(i + 1)}>
                  {i + 1}. {q}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col text-sm">
            Answer to try
            <textarea rows={4} value={answer} onChange={(e) => setAnswer(e.target.value)} className={FIELD} />
          </label>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <Button size="sm" onClick={tryIt} disabled={trying}>
              {trying ? 'Judging…' : 'Try answer'}
            </Button>
            {unavailable === null && assistant.languageModel !== null && (
              <label className="flex items-center gap-2">
                <input type="checkbox" checked={withModel} onChange={(e) => setWithModel(e.target.checked)} />
                Also ask the language-model rater ({assistant.languageModel}, a paid call)
              </label>
            )}
          </div>
        </>
      )}
      <div aria-live="polite">
        {message && !message.error && (
          <p role="status" className="rounded bg-green-50 p-2 text-sm text-green-800">
            {message.text}
          </p>
        )}
      </div>
      <AdminError error={message?.error ? message.text : failure} inDialog />
      {tried && (
        <div className="flex flex-col gap-2" data-testid="tried-answer">
          <p className="text-sm font-semibold">
            Built-in rater: {tried.verdict} · {tried.score}/100
          </p>
          {tried.languageModel && <LanguageModelVerdict judged={tried.languageModel} />}
        </div>
      )}
      {unavailable !== null && (
        <p id={`${id}-unavailable`} className="text-xs text-gray-700">
          Suggest phrasings is unavailable: {unavailable}
        </p>
      )}
      {keyPoints.length > 0 && (
        <ul aria-label={`Key points of question ${questionNumber}`} className="flex flex-col gap-2">
          {keyPoints.map((point) => (
            <KeyPointRow
              key={point}
              point={point}
              tried={tried?.keyPoints.find((k) => k.point === point) ?? null}
              statements={tried?.statements ?? []}
              suggestions={suggested && suggested.keyPoint === point ? suggested : null}
              suggesting={suggestFetcher.state !== 'idle' && asked === point}
              unavailableId={`${id}-unavailable`}
              unavailable={unavailable}
              onLine={(lines) => addLines(point, lines)}
              onSuggest={() => suggest(point)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
