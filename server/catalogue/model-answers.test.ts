/** "Also accepted" / "Contradicted by" bullets name their key point by its text (docs/question-sets.md); numbers are still read, and reported. */
import { describe, expect, it } from 'vitest';
import { parseModelAnswerSections } from './model-answers';

const section = (bullets: string) =>
  [
    '### 1. What are the NoSQL families?',
    '',
    'An answer.',
    '',
    '**Key points:** NoSQL families: key-value, document and graph; pick by access pattern',
    '',
    '**Also accepted:**',
    '',
    bullets,
    '',
  ].join('\n');

describe('phrasing bullets', () => {
  it('name their key point by its text, even a text with a colon in it', () => {
    const [s] = parseModelAnswerSections(
      section(
        '- NoSQL families: key-value, document and graph: document store | graph database\n- pick by access pattern: depends on the queries',
      ),
    );
    expect(s!.accepted).toEqual([['document store', 'graph database'], ['depends on the queries']]);
    expect(s!.numbered).toEqual([]);
    expect(s!.problems).toEqual([]);
  });

  it('still read a number, and report it so the catalogue can warn', () => {
    const [s] = parseModelAnswerSections(section('- 2: depends on the queries'));
    expect(s!.accepted).toEqual([[], ['depends on the queries']]);
    expect(s!.numbered).toEqual([{ block: 'Also accepted', line: '2: depends on the queries' }]);
  });

  it('report a bullet that names no key point', () => {
    const [s] = parseModelAnswerSections(section('- 3: nothing\n- caching: nothing'));
    expect(s!.problems.map((p) => p.line)).toEqual(['3: nothing', 'caching: nothing']);
  });
});
