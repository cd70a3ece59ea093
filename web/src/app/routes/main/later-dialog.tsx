import type { PublicConfig, QuestionSet } from '../../../../../contract';
import { SupportDialog } from '../../../components/support-dialog';
import type { Account } from '../../../features/account/account-session';
import { WelcomeDialog } from '../../../features/account/welcome-dialog';
import { answersWillBeTyped } from '../../../lib/speech-support';
import { TopicPicker } from '../../../features/topics/topic-picker';

export interface LaterDialogProps {
  dialog: 'welcome' | 'topics' | 'support';
  config: PublicConfig;
  account: Account | null;
  selected: QuestionSet | null;
  onSelect: (set: QuestionSet) => void;
  onClose: () => void;
}

/** The main screen's dialogs no first paint shows (main-dialogs.tsx), rendered by their lazy chunk so the first screen holds one lazy component for all three. */
export function LaterDialog({ dialog, config, account, selected, onSelect, onClose }: LaterDialogProps) {
  if (dialog === 'welcome')
    return <WelcomeDialog productName={config.productName} typed={answersWillBeTyped(config.voiceMode)} onClose={onClose} />;
  if (dialog === 'support') return <SupportDialog config={config} onClose={onClose} />;
  return (
    <TopicPicker
      config={config}
      sets={account?.sets ?? []}
      user={account?.profile ?? null}
      selectedId={selected?.id ?? null}
      onSelect={onSelect}
      onClose={onClose}
    />
  );
}
