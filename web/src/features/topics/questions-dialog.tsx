import type { QuestionSet } from '../../../../contract';
import type { TileUser } from '../../../../domain/tiles';
import { topicLevel } from '../../../../domain/topic-level';
import { Dialog } from '../../components/dialog';
import { TopicTile } from './topic-tile';

export interface QuestionsDialogProps {
  sets: QuestionSet[];
  user: TileUser;
  selectedId: number | null;
  onTile: (set: QuestionSet) => void;
  onClose: () => void;
}

/** docs/product-rules.md, Topic tiles: 'Choose an Interview Topic', sorted by index. */
export function QuestionsDialog({ sets, user, selectedId, onTile, onClose }: QuestionsDialogProps) {
  const sorted = [...sets].sort((a, b) => a.index - b.index);
  return (
    <Dialog title="Choose an Interview Topic" onClose={onClose} size="lg" testId="questions-dialog">
      {sorted.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-600">No topics are available yet.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-2.5 sm:grid-cols-2">
          {sorted.map((set) => (
            <li key={set.id} className="min-w-0">
              <TopicTile
                set={set}
                user={user}
                level={topicLevel(sets, set, user.topicLevels)}
                selected={set.id === selectedId}
                onClick={() => onTile(set)}
              />
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
