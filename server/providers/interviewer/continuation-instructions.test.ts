/**
 * A continuation call's instructions (docs/product-rules.md, Session lifecycle): built from the
 * server's transcript, they ask an unanswered question again and otherwise go on with the next one.
 */
import { describe, expect, it } from 'vitest';
import { continuationInstructions, resumePoint } from './continuation-instructions';

const QUESTIONS = ['What is a closure?', 'How do you test a service?', 'Describe a hard bug.'];
const GREETING = 'Hello and welcome to your practice interview.';
const interviewer = (transcript: string) => ({ role: 'interviewer' as const, transcript });
const candidate = (transcript: string) => ({ role: 'interviewee' as const, transcript });

describe('continuation instructions', () => {
  it('a drop before the candidate answered: the same question again, led by "Welcome back."', () => {
    const transcript = [
      interviewer(`${GREETING} ${QUESTIONS[0]}`),
      candidate('A function with its scope.'),
      interviewer(`Thanks. ${QUESTIONS[1]}`),
    ];
    const point = resumePoint(QUESTIONS, transcript);
    expect(point).toEqual({ kind: 'ask-again', question: QUESTIONS[1] });
    expect(continuationInstructions(transcript, point)).toBe(
      [
        'This interview was interrupted by a dropped connection and is now continuing. Do not greet the candidate again;',
        'start with "Welcome back.", then continue.',
        `The candidate had not answered the last question yet. Ask this question again: ${QUESTIONS[1]}`,
        '',
        'Transcript so far:',
        `Interviewer: ${GREETING} ${QUESTIONS[0]}`,
        'Candidate: A function with its scope.',
        `Interviewer: Thanks. ${QUESTIONS[1]}`,
      ].join('\n'),
    );
  });

  it('the first question unanswered (dropped right after the greeting): the first question again', () => {
    expect(resumePoint(QUESTIONS, [interviewer(`${GREETING} ${QUESTIONS[0]}`)])).toEqual({ kind: 'ask-again', question: QUESTIONS[0] });
  });

  it('a drop after the candidate answered: the next question', () => {
    const transcript = [interviewer(`${GREETING} ${QUESTIONS[0]}`), candidate('A function with its scope.')];
    const point = resumePoint(QUESTIONS, transcript);
    expect(point).toEqual({ kind: 'next', question: QUESTIONS[1] });
    expect(continuationInstructions(transcript, point)).toContain(`\nContinue with this question: ${QUESTIONS[1]}\n`);
    expect(continuationInstructions(transcript, point)).toContain('start with "Welcome back.", then continue.');
  });

  it('an answer that could not be heard is no answer: the question is asked again', () => {
    expect(resumePoint(QUESTIONS, [interviewer(QUESTIONS[0]!), candidate('[inaudible]')])).toEqual({
      kind: 'ask-again',
      question: QUESTIONS[0],
    });
  });

  it('an unanswered follow-up is asked again as it was said; a repeated "Welcome back." is not', () => {
    const followUp = 'Welcome back. Could you give an example of that?';
    const transcript = [interviewer(QUESTIONS[0]!), candidate('A function with its scope.'), interviewer(followUp)];
    expect(resumePoint(QUESTIONS, transcript)).toEqual({ kind: 'ask-again', question: 'Could you give an example of that?' });
  });

  it('only a greeting so far: the first question; the last question answered: the close', () => {
    expect(resumePoint(QUESTIONS, [interviewer(GREETING)])).toEqual({ kind: 'next', question: QUESTIONS[0] });
    const done = [
      interviewer(QUESTIONS[0]!),
      candidate('a'),
      interviewer(QUESTIONS[1]!),
      candidate('b'),
      interviewer(QUESTIONS[2]!),
      candidate('c'),
    ];
    const point = resumePoint(QUESTIONS, done);
    expect(point).toEqual({ kind: 'close' });
    expect(continuationInstructions(done, point)).toContain(
      '\nAll questions were asked and answered: thank the candidate and call close_session.\n',
    );
  });
});
