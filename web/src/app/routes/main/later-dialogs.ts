/** The main screen's dialogs that no first paint shows: one lazy chunk, preloaded after the first paint (lazy-parts.tsx). */
export { WelcomeDialog } from '../../../features/account/welcome-dialog';
export { TopicPicker } from '../../../features/topics/topic-picker';
export { SupportDialog } from '../../../components/support-dialog';
