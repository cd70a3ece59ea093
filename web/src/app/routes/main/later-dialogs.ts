/**
 * The main screen's dialogs that no first paint shows, the email dialog's out-of-tokens notice and
 * the topic header's level line: one lazy chunk, preloaded after the first paint (lazy-parts.tsx).
 */
import '../../../styles/app.css';
export { LaterDialog } from './later-dialog';
export { OutOfTokensNotice } from '../../../features/account/out-of-tokens-notice';
export { CreditsLine } from '../../../features/account/credits-line';
export { TopicLevelLine } from '../../../features/topics/topic-level-line';
export { feedbackAction } from '../../../features/topics/feedback-action';
