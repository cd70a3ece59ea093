import { useState } from 'react';
import type { PublicConfig, QuestionSet } from '../../../../contract';
import { tileState, type TileUser } from '../../../../domain/tiles';
import { rememberSet } from '../../lib/selected-set';
import { FeedbackDialog } from './feedback-dialog';
import { QuestionsDialog } from './questions-dialog';
import { UpgradeDialog } from './upgrade-dialog';

export interface TopicPickerProps {
  config: PublicConfig;
  sets: QuestionSet[];
  /** The logged-in user's plan, levels and feedback (the login answer); null reads as a new free user. */
  user: TileUser | null;
  selectedId: number | null;
  onSelect: (set: QuestionSet) => void;
  onClose: () => void;
}

const NEW_USER: TileUser = { subscription: null, topicLevels: {}, topicFeedback: {} };

type Step = { name: 'list' } | { name: 'upgrade' } | { name: 'feedback'; set: QuestionSet };

/**
 * The topic list and the dialog a tile leads to (docs/product-rules.md, Topic tiles; the rule is
 * domain/tiles.ts): a premium set for a free user opens 'Upgrade to Pro', a feedback-gated set asks
 * for feedback first and is selected once it is sent, an open set is selected; a locked one does nothing.
 */
export function TopicPicker({ config, sets, user, selectedId, onSelect: select, onClose }: TopicPickerProps) {
  // The chosen topic is kept across a reload (lib/selected-set.ts).
  const onSelect = (set: QuestionSet) => {
    rememberSet(set.id);
    select(set);
  };
  const [step, setStep] = useState<Step>({ name: 'list' });
  const tileUser = user ?? NEW_USER;
  const back = () => setStep({ name: 'list' });

  const onTile = (set: QuestionSet) => {
    const { action } = tileState(set, tileUser);
    if (action === 'upgrade') setStep({ name: 'upgrade' });
    else if (action === 'feedback') setStep({ name: 'feedback', set });
    else if (action === 'select') onSelect(set);
  };

  if (step.name === 'upgrade') return <UpgradeDialog config={config} onClose={back} />;
  if (step.name === 'feedback')
    return <FeedbackDialog topic={step.set.name} questionIndex={step.set.index} onSent={() => onSelect(step.set)} onClose={back} />;
  return <QuestionsDialog sets={sets} user={tileUser} selectedId={selectedId} onTile={onTile} onClose={onClose} />;
}
