/**
 * The question-set editor's changes, run by its route's action (a JSON body): save a set (new when
 * `id` is null) or delete one, which the server turns into archiving when interviews used it.
 */
import { submitData } from '../../../lib/load-data';
import { deleteQuestionSet, moveQuestionSet, saveQuestionSet, type AdminQuestionSet, type QuestionSetInput } from '../admin-api';
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

export async function runQuestionSetChange(secret: string, change: QuestionSetChange): Promise<QuestionSetChangeResult> {
  if (change.intent === 'save') {
    const answer = await submitData(saveQuestionSet(secret, change.id, change.set), SAVE_TEXTS);
    if (!answer.ok) return answer;
    return { ok: true, notice: `Saved "${answer.data.name}". Candidates see it now.`, saved: answer.data };
  }
  if (change.intent === 'move') {
    const moved = await submitData(moveQuestionSet(secret, change.id, change.index), MOVE_TEXTS);
    if (!moved.ok) return moved;
    return {
      ok: true,
      notice: `Moved "${change.name}" to place ${change.index}. Candidates see the new order now.`,
      saved: moved.data.find((s) => s.id === change.id) ?? null,
    };
  }
  const answer = await submitData(deleteQuestionSet(secret, change.id), DELETE_TEXTS);
  if (!answer.ok) return answer;
  const notice =
    answer.data.outcome === 'archived'
      ? `Archived "${change.name}": interviews used it, so its history is kept. The later sets moved up one place.`
      : `Deleted "${change.name}". The later sets moved up one place.`;
  return { ok: true, notice, saved: null };
}
