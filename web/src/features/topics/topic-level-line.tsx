import type { QuestionSet } from '../../../../contract';
import { topicLevel, topicLevelText } from '../../../../domain/topic-level';

/** The topic header's level line (docs/product-rules.md, Topic tiles): which level of its topic the set is, and the candidate's own. */
export function TopicLevelLine({ sets, set, topicLevels }: { sets: QuestionSet[]; set: QuestionSet; topicLevels: Record<string, number> }) {
  return (
    <p className="text-sm text-slate-600" data-testid="topic-level">
      {topicLevelText(topicLevel(sets, set, topicLevels))}
    </p>
  );
}
