import { describe, expect, it } from 'vitest';
import { spokenAfterResume } from './heard-again';

describe('the continuation line after a resume (docs/product-rules.md, Leaving and coming back)', () => {
  it('says only "Welcome back." when the repeated line was heard to its end', () => {
    expect(spokenAfterResume('Welcome back. What is a closure?', 'What is a closure?')).toEqual({ text: 'Welcome back.', repeat: true });
    // A second reload: the last line heard is the continuation line itself.
    expect(spokenAfterResume('Welcome back. What is a closure?', 'Welcome back. What is a closure?')).toEqual({
      text: 'Welcome back.',
      repeat: true,
    });
  });

  it('says the whole line when it was never heard to its end, or is a new line', () => {
    expect(spokenAfterResume('Welcome back. What is a closure?', undefined)).toEqual({
      text: 'Welcome back. What is a closure?',
      repeat: false,
    });
    expect(spokenAfterResume('Welcome back. What is a closure?', 'Tell me about yourself.')).toEqual({
      text: 'Welcome back. What is a closure?',
      repeat: false,
    });
    expect(spokenAfterResume('Welcome back. Next: what is hoisting?', 'What is a closure?').repeat).toBe(false);
  });
});
