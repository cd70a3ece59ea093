import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../contract';
import { withAskedQuestions } from './asked-questions';

const line = (transcript: string, askedQuestion?: number): TranscriptEntry =>
  askedQuestion === undefined ? { role: 'interviewer', transcript } : { role: 'interviewer', transcript, askedQuestion };
const said = (transcript: string): TranscriptEntry => ({ role: 'interviewee', transcript });

describe('the questions the server recorded, on the transcript a browser sent', () => {
  const stored = [
    line('Question 1. What is a cache?', 0),
    said('A copy.'),
    line('Of course. Here is the question again. What is a cache?', 0),
    said('A fast copy.'),
    line('Question 2. How do you invalidate it?', 1),
    said('Delete on write.'),
    line('Of course. Here is the question again. How do you invalidate it?', 1),
    said('Expire it.'),
    line('Thank you, that covers all of my questions.'),
  ];

  it('takes each line its question from the stored line of the same words, in order, and leaves the rest alone', () => {
    const sent = [
      { ...line('Question 1.  What is a cache? '), at: 10, cutAt: 5 },
      said('A copy.'),
      // Said twice with the same words: each takes its own stored line's question.
      line('Of course. Here is the question again. What is a cache?'),
      said('A fast copy.'),
      line('Of course. Here is the question again. How do you invalidate it?'),
      said('Expire it.'),
      line('Thank you, that covers all of my questions.'),
    ];
    expect(withAskedQuestions(sent, stored)).toEqual([
      { ...line('Question 1.  What is a cache? ', 0), at: 10, cutAt: 5 },
      said('A copy.'),
      line('Of course. Here is the question again. What is a cache?', 0),
      said('A fast copy.'),
      // The browser lost "Question 2" (a reload): the repeat after it still finds its own.
      line('Of course. Here is the question again. How do you invalidate it?', 1),
      said('Expire it.'),
      line('Thank you, that covers all of my questions.'),
    ]);
  });

  it('never keeps a question the browser claims, and gives none to a line the server did not say', () => {
    const sent = [line('Question 1. What is a cache?', 1), said('A copy.'), line('Something the server never said?', 0)];
    expect(withAskedQuestions(sent, stored)).toEqual([
      line('Question 1. What is a cache?', 0),
      said('A copy.'),
      line('Something the server never said?'),
    ]);
    // A session whose interviewer recorded nothing (a language model's): the browser's claims go all the same.
    expect(withAskedQuestions(sent, [line('Question 1. What is a cache?')])).toEqual([
      line('Question 1. What is a cache?'),
      said('A copy.'),
      line('Something the server never said?'),
    ]);
  });
});
