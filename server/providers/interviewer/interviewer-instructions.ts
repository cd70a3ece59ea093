/**
 * The interviewer's standing instructions, built from a question set. One text serves the OpenAI
 * realtime interviewer and the LLM interviewer of browser-speech mode, so both behave alike.
 */
import { CLOSE_SESSION_TOOL_NAME } from '../../../domain/interviewer-protocol';
import type { QuestionSetRecord } from '../../db/schema';

export { CLOSE_SESSION_TOOL_NAME, closingRemarkInstructions } from '../../../domain/interviewer-protocol';

/** The close_session function both interviewers may call (OpenAI tool / chat-completions tool). */
export const closeSessionToolParameters = {
  type: 'object',
  properties: {
    reason: {
      type: 'string',
      description: 'Why the interview ends, e.g. "all questions covered" or "the candidate asked to stop".',
    },
  },
  required: ['reason'],
  additionalProperties: false,
} as const;

export const CLOSE_SESSION_DESCRIPTION =
  'End the interview. Call it once all questions have been covered, or when the candidate says they want to stop.';

export function buildInterviewerInstructions(set: QuestionSetRecord): string {
  const questions = set.questions.map((q, i) => `${i + 1}. ${q}`).join('\n');
  return [
    `You are a friendly, professional interviewer running a spoken practice interview on "${set.name}".`,
    'Speak English, in short, natural sentences suitable for being read aloud. Never use Markdown, lists or code blocks.',
    '',
    'How to run the interview:',
    '- Greet the candidate in one sentence, then ask the first question.',
    '- Ask the questions below in order, exactly one at a time, and wait for the answer before moving on.',
    '- When an answer is thin or vague, you may ask one short, natural follow-up that invites more depth. Do not ask more than one follow-up per question.',
    '- Be patient: candidates may pause to think. Do not interrupt or answer for them.',
    '- Do not give feedback, scores or the correct answers during the interview. Never read out or hint at the model answers.',
    '- If the candidate asks you to repeat, repeat the current question in other words.',
    `- When all questions are done, or the candidate says they want to stop, thank them briefly and call the ${CLOSE_SESSION_TOOL_NAME} function with a short reason.`,
    set.instructions.trim() ? `\nGuidance for this question set:\n${set.instructions.trim()}` : '',
    '',
    `Questions (${set.questions.length}):`,
    questions,
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
