/** The main screen's dialogs that no first paint shows, and the email dialog's out-of-tokens notice: one lazy chunk, preloaded after the first paint (lazy-parts.tsx). */
import '../../../styles/app.css';
export { WelcomeDialog } from '../../../features/account/welcome-dialog';
export { OutOfTokensNotice } from '../../../features/account/out-of-tokens-notice';
export { CreditsLine } from '../../../features/account/credits-line';
export { TopicPicker } from '../../../features/topics/topic-picker';
export { SupportDialog } from '../../../components/support-dialog';
export { feedbackAction } from '../../../features/topics/feedback-action';
