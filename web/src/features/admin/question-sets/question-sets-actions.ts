/**
 * The question-set editor's changes, run by its route's action (a JSON body): save a set (new when
 * `id` is null), move one, or delete one, which the server turns into archiving when interviews
 * used it; and its helpers, which change nothing (try an answer, suggest phrasings).
 */
import { submitData } from '../../../lib/load-data';
import {
  deleteQuestionSet,
  moveQuestionSet,
  saveQuestionSet,
  suggestPhrasings,
  tryAnswer,
  type AdminQuestionSet,
  type AdminSession,
  type PhrasingSuggestions,
  type QuestionSetInput,
  type TryAnswerResult,
} from '../admin-api';
import { adminTexts } from '../format';

export type QuestionSetChange =
  | { intent: 'save'; id: number | null; set: QuestionSetInput }
  | { intent: 'delete'; id: number; name: string }
  | { intent: 'move'; id: number; name: string; index: number };

/** What the page shows after a change; `saved` is the stored set, for the editor to keep editing it. */
export type QuestionSetChangeResult = { ok: true; notice: string; saved: AdminQuestionSet | null } | { ok: false; error: string };

const SAVE_TEXTS = adminTexts('Failed to save the question set', 'An error occurred while saving the question set.');
const DELETE_TEXTS = adminTexts('Failed to delete the question set', 'An error occurred while deleting the question set.');
const MOVE_TEXTS = adminTexts('Failed to move the question set', 'An error occurred while moving the question set.');

export async function runQuestionSetChange(session: AdminSession, change: QuestionSetChange): Promise<QuestionSetChangeResult> {
  if (change.intent === 'save') {
    const answer = await submitData(saveQuestionSet(session, change.id, change.set), SAVE_TEXTS);
    if (!answer.ok) return answer;
    return { ok: true, notice: `Saved "${answer.data.name}". Candidates see it now.`, saved: answer.data };
  }
  if (change.intent === 'move') {
    const moved = await submitData(moveQuestionSet(session, change.id, change.index), MOVE_TEXTS);
    if (!moved.ok) return moved;
    return {
      ok: true,
      notice: `Moved "${change.name}" to place ${change.index}. Candidates see the new order now.`,
      saved: moved.data.find((s) => s.id === change.id) ?? null,
    };
  }
  const answer = await submitData(deleteQuestionSet(session, change.id), DELETE_TEXTS);
  if (!answer.ok) return answer;
  const notice =
    answer.data.outcome === 'archived'
      ? `Archived "${change.name}": interviews used it, so its history is kept. The later sets moved up one place.`
      : `Deleted "${change.name}". The later sets moved up one place.`;
  return { ok: true, notice, saved: null };
}

/** The editor's helpers on the set as drafted (nothing is saved): try an answer, or ask for phrasings of a key point. */
export type SetAssist =
  | { intent: 'try'; set: QuestionSetInput; questionNumber: number; answer: string; languageModel: boolean }
  | { intent: 'suggest'; set: QuestionSetInput; questionNumber: number; keyPoint: string };

export type TryOutcome = { ok: true; tried: TryAnswerResult; questionNumber: number; answer: string } | { ok: false; error: string };
export type SuggestOutcome = { ok: true; suggestions: PhrasingSuggestions; questionNumber: number } | { ok: false; error: string };

const TRY_TEXTS = adminTexts('Failed to try the answer', 'An error occurred while trying the answer.');
const SUGGEST_TEXTS = adminTexts('Failed to suggest phrasings', 'An error occurred while asking for phrasings.');

export function isSetAssist(body: { intent?: unknown }): body is SetAssist {
  return body.intent === 'try' || body.intent === 'suggest';
}

export async function runSetAssist(session: AdminSession, assist: SetAssist): Promise<TryOutcome | SuggestOutcome> {
  const { set, questionNumber } = assist;
  if (assist.intent === 'try') {
    const { answer, languageModel } = assist;
    const tried = await submitData(tryAnswer(session, { set, questionNumber, answer, languageModel }), TRY_TEXTS);
    return tried.ok ? { ok: true, tried: tried.data, questionNumber, answer } : tried;
  }
  const suggested = await submitData(suggestPhrasings(session, { set, questionNumber, keyPoint: assist.keyPoint }), SUGGEST_TEXTS);
  return suggested.ok ? { ok: true, suggestions: suggested.data, questionNumber } : suggested;
}
