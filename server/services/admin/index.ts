/**
 * The operator's console wing (ARCHITECTURE.md, "Operator's console"): the admin secret's check
 * and throttle (`auth.ts`), the events, emails and feedback lists (`console.ts`, with the feedback
 * list's cache), CSV exports, the question-set editor and its helpers, daily stats and data
 * requests. Code outside this folder imports it through this door only (eslint.config.js).
 */
export {
  ADMIN_MAX_FAILURES,
  ADMIN_MAX_FAILURES_OVERALL,
  ADMIN_SECRET_WRONG,
  ADMIN_THROTTLED,
  adminThrottleKey,
  createAdminGuard,
} from './auth';
export {
  adminCounts,
  deleteEmail,
  deleteFeedback,
  eventDetails,
  eventsPageJson,
  interviewStats,
  listEmails,
  setSessionLimit,
  upsertEmail,
} from './console';
export { EXPORT_PAGE_SIZE, exportFeedback, exportRatings, PGLITE_RATINGS_EXPORT_PAGE_SIZE, RATINGS_EXPORT_PAGE_SIZE } from './exports';
export { createFeedbackListCache } from './feedback-list-cache';
export { createQuestionSet, deleteQuestionSet, listAdminQuestionSets, moveQuestionSet, updateQuestionSet } from './question-sets';
export {
  EDITOR_MAX_PROMPT_CHARS,
  LANGUAGE_MODEL_OFF,
  NO_LANGUAGE_MODEL,
  setAssistant,
  suggestPhrasings,
  tryAnswer,
} from './set-editor-assist';
export { dailyStats } from './stats';
export { eraseUser, userData } from './users';
