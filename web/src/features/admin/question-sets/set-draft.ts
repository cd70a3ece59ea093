/** The editor's form state and its conversion to the API's question-set shape. */
import type { AdminQuestionSet, QuestionSetInput } from '../admin-api';

export interface SetDraft {
  name: string;
  index: string;
  isPremium: boolean;
  requiresFeedback: boolean;
  instructions: string;
  /** One question per line. */
  questions: string;
  modelAnswers: string;
}

export function draftOf(set: AdminQuestionSet): SetDraft {
  return {
    name: set.name,
    index: String(set.index),
    isPremium: set.isPremium,
    requiresFeedback: set.requiresFeedback,
    instructions: set.instructions,
    questions: set.questions.join('\n'),
    modelAnswers: set.modelAnswers,
  };
}

export function emptyDraft(nextIndex: number): SetDraft {
  return {
    name: '',
    index: String(nextIndex),
    isPremium: false,
    requiresFeedback: false,
    instructions: '',
    questions: '',
    modelAnswers: '### 1. <the first question>\n\nAn example answer.\n\n**Key points:** first point; second point.',
  };
}

/** The server checks everything else with the catalogue's rules; only the index must be a number here. */
export function inputOf(draft: SetDraft): QuestionSetInput | string {
  const index = Number(draft.index);
  if (!/^\d+$/.test(draft.index.trim()) || index < 1) return 'The index must be a whole number of at least 1.';
  return {
    name: draft.name,
    index,
    isPremium: draft.isPremium,
    requiresFeedback: draft.requiresFeedback,
    instructions: draft.instructions,
    questions: draft.questions
      .split('\n')
      .map((q) => q.trim())
      .filter((q) => q !== ''),
    modelAnswers: draft.modelAnswers,
  };
}
