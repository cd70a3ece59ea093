/** The feedback form's action (docs/product-rules.md, Topic tiles): POST /user/feedback for the topic a tile asked about. */
import { sendFeedback } from '../../lib/session-api';
import { submitData, type FailureTexts } from '../../lib/load-data';

export const FEEDBACK_NETWORK_ERROR = 'An error occurred while sending your feedback.';
export const FEEDBACK_MISSING_INFO = 'Missing feedback submission information';

const FEEDBACK_TEXTS: FailureTexts = {
  http: (message) => `Failed to send feedback: ${message}`,
  network: FEEDBACK_NETWORK_ERROR,
  log: 'Feedback was not sent:',
};

export type FeedbackOutcome = { ok: true; topic: string } | { ok: false; error: string };

/** Fields `feedback`, `topic`, `questionIndex`; `email` is who is logged in (null: nobody). */
export async function feedbackAction(form: FormData, email: string | null): Promise<FeedbackOutcome> {
  const feedback = String(form.get('feedback') ?? '');
  const topic = String(form.get('topic') ?? '');
  const questionIndex = Number(form.get('questionIndex'));
  if (!email || !topic || !Number.isInteger(questionIndex)) return { ok: false, error: FEEDBACK_MISSING_INFO };
  const result = await submitData(sendFeedback(email, { feedback, topic, questionIndex }), FEEDBACK_TEXTS);
  return result.ok ? { ok: true, topic } : result;
}
