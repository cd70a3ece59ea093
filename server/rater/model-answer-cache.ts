/**
 * A set's model answers parsed once per version of the set (issue 32): the parse is kept by set
 * id with the Markdown it came from, and a set whose Markdown changed (an admin edit, a sync) is
 * parsed again. Each thread that judges keeps its own (the server's and every rater worker's).
 */
import { splitModelAnswers, type ModelAnswer } from '../catalogue/model-answers';

/** Enough for every set an operator keeps; the least recently used goes first beyond it. */
export const MODEL_ANSWER_CACHE_SETS = 200;

export interface RatedSet {
  id: number;
  questions: readonly string[];
  modelAnswers: string;
}

export type ModelAnswerCache = (set: RatedSet) => ModelAnswer[];

export function createModelAnswerCache(limit = MODEL_ANSWER_CACHE_SETS): ModelAnswerCache {
  const parsed = new Map<number, { markdown: string; questions: number; models: ModelAnswer[] }>();
  return (set) => {
    const kept = parsed.get(set.id);
    if (kept) parsed.delete(set.id);
    const fresh =
      kept && kept.markdown === set.modelAnswers && kept.questions === set.questions.length
        ? kept
        : {
            markdown: set.modelAnswers,
            questions: set.questions.length,
            models: splitModelAnswers(set.modelAnswers, set.questions.length),
          };
    parsed.set(set.id, fresh);
    if (parsed.size > limit) parsed.delete(parsed.keys().next().value!);
    return fresh.models;
  };
}
