import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { splitModelAnswers } from './model-answers';
import { parseQuestionSetFile, readCatalogue } from './read-catalogue';

const SHIPPED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../content/question-sets');

function setFile(overrides: { front?: string; questions?: string; answers?: string } = {}): string {
  const front = overrides.front ?? 'name: Testing\nindex: 3\nisPremium: true\nrequiresFeedback: false\ninstructions: Be kind.';
  const questions = overrides.questions ?? '1. What is a unit test?\n2. What is a mock?';
  const answers =
    overrides.answers ??
    [
      '### 1. What is a unit test?',
      '',
      'A test of one small unit in isolation.',
      '',
      '**Key points:** one unit; isolation; fast feedback.',
      '',
      '### 2. What is a mock?',
      '',
      'A stand-in that records calls.',
      '',
      'Key points:',
      '- replaces a dependency',
      '- records calls',
    ].join('\n');
  return `---\n${front}\n---\n\n## Questions\n\n${questions}\n\n## Model Answers\n\n${answers}\n`;
}

describe('parseQuestionSetFile', () => {
  it('reads front matter, questions and model answers', () => {
    const set = parseQuestionSetFile('t.md', setFile());
    expect(set).toEqual({
      name: 'Testing',
      index: 3,
      isPremium: true,
      requiresFeedback: false,
      instructions: 'Be kind.',
      questions: ['What is a unit test?', 'What is a mock?'],
      modelAnswers: expect.stringMatching(/^### 1\. What is a unit test\?[\s\S]*- records calls$/),
    });
  });

  it('joins indented continuation lines of a long question', () => {
    const set = parseQuestionSetFile('t.md', setFile({ questions: '1. What is a unit\n   test?\n2. What is a mock?' }));
    expect(set.questions[0]).toBe('What is a unit test?');
  });

  it.each([
    ['index: 0', '"index" must be a whole number of at least 1'],
    ['index: two', '"index" must be a whole number of at least 1'],
  ])('rejects a bad index (%s)', (line, message) => {
    const text = setFile({ front: `name: T\n${line}\nisPremium: false\nrequiresFeedback: false` });
    expect(() => parseQuestionSetFile('bad.md', text)).toThrow(`Question set bad.md: ${message}`);
  });

  it('names missing and unknown front-matter fields', () => {
    expect(() => parseQuestionSetFile('f.md', setFile({ front: 'name: T\nindex: 1\nrequiresFeedback: false' }))).toThrow(
      'Question set f.md: "isPremium" must be true or false',
    );
    expect(() =>
      parseQuestionSetFile('f.md', setFile({ front: 'name: T\nindex: 1\nisPremium: false\nrequiresFeedback: false\npremium: true' })),
    ).toThrow('Question set f.md: unknown front-matter field(s) "premium"');
    expect(() => parseQuestionSetFile('f.md', setFile({ front: 'name: [unclosed\nindex: 1' }))).toThrow(
      /^Question set f\.md: the front matter is not valid YAML/,
    );
  });

  it('never runs JavaScript or CoffeeScript front matter', () => {
    const marker = globalThis as { catalogueRan?: boolean };
    for (const language of ['js', 'javascript', 'coffee']) {
      const text = setFile().replace(
        /^---\n[\s\S]*?\n---/,
        `---${language}\n({ name: (globalThis.catalogueRan = true, 'X'), index: 1, isPremium: false, requiresFeedback: false })\n---`,
      );
      expect(text.startsWith(`---${language}\n`)).toBe(true);
      expect(() => parseQuestionSetFile('evil.md', text)).toThrow(
        'Question set evil.md: the front matter is not valid YAML (front matter marked as JavaScript or CoffeeScript is not allowed; write it as YAML)',
      );
    }
    expect(marker.catalogueRan).toBeUndefined();
  });

  it('rejects a set without questions', () => {
    expect(() => parseQuestionSetFile('q.md', setFile({ questions: 'Just prose, no list.' }))).toThrow(
      'Question set q.md: has no questions (expected a numbered list under "## Questions")',
    );
    const noSection =
      '---\nname: T\nindex: 1\nisPremium: false\nrequiresFeedback: false\n---\n\n## Model Answers\n\n### 1. Q\n\nA\n\n**Key points:** a\n';
    expect(() => parseQuestionSetFile('q.md', noSection)).toThrow('Question set q.md: has no "## Questions" section');
  });

  it('rejects model answers that do not match the questions', () => {
    const one = '### 1. What is a unit test?\n\nAn answer.\n\n**Key points:** a';
    expect(() => parseQuestionSetFile('m.md', setFile({ answers: one }))).toThrow(
      'Question set m.md: has 2 questions but 1 model-answer sections (expected one "### n. <question>" per question)',
    );
    const swapped = '### 1. What is a mock?\n\nA.\n\n**Key points:** a\n\n### 2. What is a unit test?\n\nB.\n\n**Key points:** b';
    expect(() => parseQuestionSetFile('m.md', setFile({ answers: swapped }))).toThrow(
      'Question set m.md: model answer 1 is headed "What is a mock?" but question 1 is "What is a unit test?"',
    );
    const misnumbered = '### 1. What is a unit test?\n\nA.\n\n**Key points:** a\n\n### 3. What is a mock?\n\nB.\n\n**Key points:** b';
    expect(() => parseQuestionSetFile('m.md', setFile({ answers: misnumbered }))).toThrow(
      'Question set m.md: model-answer section 2 is numbered 3; number them 1 to 2 in order',
    );
    const noKeys = '### 1. What is a unit test?\n\nA.\n\n**Key points:** a\n\n### 2. What is a mock?\n\nB.';
    expect(() => parseQuestionSetFile('m.md', setFile({ answers: noKeys }))).toThrow(
      'Question set m.md: model answer 2 has no key points (add a line "**Key points:** a; b; c")',
    );
  });
});

describe('phrasing blocks', () => {
  it('rejects a phrasing line that names no key point of its section', () => {
    const answers =
      '### 1. What is a unit test?\n\nA.\n\n**Key points:** one unit\n\n**Also accepted:**\n\n- two units: a single unit\n\n### 2. What is a mock?\n\nB.\n\n**Key points:** b';
    expect(() => parseQuestionSetFile('m.md', setFile({ answers }))).toThrow(
      'Question set m.md: model answer 1: the "Also accepted" line "two units: a single unit" does not name one of its key points (write "- <key point>: phrasing | phrasing")',
    );
  });
});

describe('splitModelAnswers', () => {
  it('splits inline and bulleted key points and strips them from the answer', () => {
    const set = parseQuestionSetFile('t.md', setFile());
    expect(splitModelAnswers(set.modelAnswers, 2)).toEqual([
      {
        answer: 'A test of one small unit in isolation.',
        keyPoints: ['one unit', 'isolation', 'fast feedback'],
        accepted: [[], [], []],
        contradictions: [[], [], []],
      },
      {
        answer: 'A stand-in that records calls.',
        keyPoints: ['replaces a dependency', 'records calls'],
        accepted: [[], []],
        contradictions: [[], []],
      },
    ]);
  });

  it('gives an empty entry for a question without a section', () => {
    expect(splitModelAnswers('### 2. B\n\nText\n\n**Key points:** x', 3)).toEqual([
      { answer: '', keyPoints: [], accepted: [], contradictions: [] },
      { answer: 'Text', keyPoints: ['x'], accepted: [[]], contradictions: [[]] },
      { answer: '', keyPoints: [], accepted: [], contradictions: [] },
    ]);
  });

  it('reads accepted phrasings and contradictions per key point, by text or number', () => {
    const section = [
      '### 1. Q',
      '',
      'Text.',
      '',
      '**Key points:** var is function scoped; prefer const',
      '',
      '**Also accepted:**',
      '',
      '- var is function scoped: var lives in the whole function | var belongs to the function',
      '- 2: const by default',
      '',
      '**Contradicted by:**',
      '',
      '- Var is function scoped: var is block scoped',
      '',
      'More text.',
    ].join('\n');
    expect(splitModelAnswers(section, 1)).toEqual([
      {
        answer: 'Text.\n\nMore text.',
        keyPoints: ['var is function scoped', 'prefer const'],
        accepted: [['var lives in the whole function', 'var belongs to the function'], ['const by default']],
        contradictions: [['var is block scoped'], []],
      },
    ]);
  });
});

describe('readCatalogue', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = '';
  });

  it('rejects duplicate indexes naming both files', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'catalogue-'));
    await writeFile(path.join(dir, 'a.md'), setFile());
    await writeFile(path.join(dir, 'b.md'), setFile());
    await expect(readCatalogue(dir)).rejects.toThrow(
      `Question set ${path.join(dir, 'b.md')}: duplicate index 3 (also used by ${path.join(dir, 'a.md')})`,
    );
  });

  it('rejects an empty directory', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'catalogue-'));
    await expect(readCatalogue(dir)).rejects.toThrow(`The question-set catalogue at ${dir} has no .md files.`);
  });

  it('reads the shipped catalogue: unique 1-based indexes, a free first set, premium and feedback sets', async () => {
    const sets = await readCatalogue(SHIPPED);
    expect(sets.length).toBeGreaterThanOrEqual(8);
    expect(sets.some((s) => s.isPremium)).toBe(true);
    expect(sets.some((s) => s.requiresFeedback)).toBe(true);
    expect(sets.map((s) => s.index)).toEqual(sets.map((_, i) => i + 1));
    expect(sets[0]).toMatchObject({ index: 1, isPremium: false, requiresFeedback: false });
    const names = sets.map((s) => s.name);
    expect(new Set(names).size).toBeLessThan(names.length);
    for (const set of sets) {
      expect(set.questions.length).toBeGreaterThanOrEqual(4);
      expect(set.questions.length).toBeLessThanOrEqual(6);
      expect(set.instructions.length).toBeGreaterThan(20);
      for (const answer of splitModelAnswers(set.modelAnswers, set.questions.length)) {
        expect(answer.answer.split(/\s+/).length).toBeGreaterThan(80);
        expect(answer.keyPoints.length).toBeGreaterThanOrEqual(3);
      }
    }
  });
});

describe('the documented example (docs/question-sets.md)', () => {
  it('is a valid question-set file with its phrasings read', async () => {
    const doc = await readFile(path.resolve(import.meta.dirname, '../../docs/question-sets.md'), 'utf8');
    const example = /## A complete example\s+```markdown\n([\s\S]*?)\n```\s*$/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const set = parseQuestionSetFile('example.md', example!);
    expect(set).toMatchObject({
      name: 'Testing',
      index: 9,
      questions: ['What is a unit test, and what makes a good one?', 'When would you use a mock, and what can go wrong with mocks?'],
    });
    const [first, second] = splitModelAnswers(set.modelAnswers, 2);
    expect(first!.accepted).toEqual([
      ['checks a single function on its own', 'no database or network'],
      ['runs in milliseconds', 'same result every time'],
      ['survives a refactoring', 'only uses the public interface'],
      [],
    ]);
    expect(first!.contradictions[2]).toEqual(['test every private method']);
    expect(second!.keyPoints).toHaveLength(4);
  });
});
