/** docs/product-rules.md, Session lifecycle (Reconnecting): the texts of the reconnect choice. */
export const RECONNECTING_NOTICE = 'The connection was lost. Reconnecting to continue your interview...';
export const CONNECTION_LOST_CHOICE =
  'The connection was lost. Your interview so far is kept: press Reconnect to continue it (no extra session credit is used), or end it to get feedback on what you said.';
export const RECONNECT_FAILED_CHOICE =
  'Reconnecting did not work. Your interview so far is kept: check your internet connection and press Reconnect to try again (no extra session credit is used), or end it to get feedback on what you said.';
export const RECONNECT_REFUSED_HINT = 'You can still end the interview and get feedback on what you said.';

/** docs/product-rules.md, Session lifecycle (Leaving and coming back): the interview found open after a reload or in a new tab. */
export const LIVE_SESSION_TITLE = 'Your interview is still open';
export const CONTINUING_NOTICE = 'Reconnecting to your interview...';
export function liveSessionText(topic: string, answers: number, canContinue: boolean): string {
  const kept =
    answers === 0 ? 'nothing you said was recorded yet' : `${answers === 1 ? 'your answer is' : `your ${answers} answers are`} kept`;
  const start = `Your ${topic} interview from earlier has not ended: ${kept}.`;
  return canContinue
    ? `${start} Continue it where it stopped (no extra session credit is used), or end it now and get feedback on what you said.`
    : `${start} It can no longer be continued, but you can end it now and get feedback on what you said.`;
}
