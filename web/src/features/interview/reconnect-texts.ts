/** docs/product-rules.md, Session lifecycle (Reconnecting): the texts of the reconnect choice. */
export const RECONNECTING_NOTICE = 'The connection was lost. Reconnecting to continue your interview...';
export const CONNECTION_LOST_CHOICE =
  'The connection was lost. Your interview so far is kept: press Reconnect to continue it (no extra session credit is used), or end it to get feedback on what you said.';
export const RECONNECT_FAILED_CHOICE =
  'Reconnecting did not work. Your interview so far is kept: check your internet connection and press Reconnect to try again (no extra session credit is used), or end it to get feedback on what you said.';
export const RECONNECT_REFUSED_HINT = 'You can still end the interview and get feedback on what you said.';
