import { describe, expect, it } from 'vitest';
import { addPhrasing, cleanPhrasing, sectionKeyPoints } from './phrasing-lines';

const SET = [
  '### 1. What is a closure?',
  '',
  'A function with its scope.',
  '',
  '**Key points:** keeps access to its outer scope; created when the function is defined',
  '',
  '### 2. What is hoisting?',
  '',
  'Declarations move up.',
  '',
  '**Key points:**',
  '',
  '- declarations are processed first',
  '- let: has a temporal dead zone',
  '- let',
  '',
  '**Also accepted:**',
  '',
  '- declarations are processed first: set up before the code runs',
  '',
  '**Contradicted by:**',
  '',
  '- let: has a temporal dead zone: let is not hoisted',
  '',
].join('\n');

const edited = (...args: Parameters<typeof addPhrasing>) => {
  const edit = addPhrasing(...args);
  if (!edit.ok) throw new Error(edit.error);
  return edit.modelAnswers;
};

describe('sectionKeyPoints', () => {
  it('reads inline and bulleted key points of the numbered section', () => {
    expect(sectionKeyPoints(SET, 1)).toEqual(['keeps access to its outer scope', 'created when the function is defined']);
    expect(sectionKeyPoints(SET, 2)).toEqual(['declarations are processed first', 'let: has a temporal dead zone', 'let']);
    expect(sectionKeyPoints(SET, 3)).toEqual([]);
  });
});

describe('addPhrasing', () => {
  it('opens a block at the end of a section without one, before the next section', () => {
    expect(edited(SET, 1, 'Keeps access to its outer scope', 'Also accepted', 'It still sees the outer variables.')).toBe(
      SET.replace(
        'created when the function is defined\n\n### 2.',
        'created when the function is defined\n\n**Also accepted:**\n\n- keeps access to its outer scope: It still sees the outer variables\n\n### 2.',
      ),
    );
  });

  it('adds to the bullet of the key point, by the longest key point the bullet names', () => {
    const once = edited(SET, 2, 'let: has a temporal dead zone', 'Contradicted by', 'let is never hoisted');
    expect(once).toContain('- let: has a temporal dead zone: let is not hoisted | let is never hoisted\n');
    // The same phrasing again changes nothing.
    expect(edited(once, 2, 'let: has a temporal dead zone', 'Contradicted by', 'Let is never hoisted.')).toBe(once);
    // "let" is another key point: a bullet of its own, at the end of the block.
    expect(edited(SET, 2, 'let', 'Contradicted by', 'var and let are the same')).toContain(
      '- let: has a temporal dead zone: let is not hoisted\n- let: var and let are the same\n',
    );
  });

  it('puts a new Also accepted block before the Contradicted by block', () => {
    const text = SET.replace(/\*\*Also accepted:\*\*\n\n- declarations[^\n]*\n\n/, '');
    expect(edited(text, 2, 'let', 'Also accepted', 'in the dead zone until declared')).toContain(
      '- let\n\n**Also accepted:**\n\n- let: in the dead zone until declared\n\n**Contradicted by:**',
    );
  });

  it('refuses what it cannot place', () => {
    expect(addPhrasing(SET, 3, 'x', 'Also accepted', 'y')).toEqual({
      ok: false,
      error: 'The model answers have no section "### 3." for question 3.',
    });
    expect(addPhrasing(SET, 1, 'uses a class', 'Also accepted', 'y')).toEqual({
      ok: false,
      error: 'Question 1 has no key point "uses a class".',
    });
    expect(addPhrasing(SET, 1, 'let', 'Also accepted', ' | ')).toEqual({
      ok: false,
      error: 'There is nothing to add: the phrasing is empty.',
    });
  });

  it('keeps a phrasing to one line without separators or Markdown marks', () => {
    expect(cleanPhrasing(' still *sees* the | outer\nscope. ')).toBe('still sees the outer scope');
  });
});
