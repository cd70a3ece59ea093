import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitModelAnswers, type ModelAnswer } from '../catalogue/model-answers';
import { readCatalogue } from '../catalogue/read-catalogue';
import { judgeAnswer } from './rubric-rater-judge';

const CATALOGUE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../content/question-sets');
const QUESTION = 'What is the difference between var, let and const in JavaScript?';
let model: ModelAnswer;
beforeAll(async () => {
  const set = (await readCatalogue(CATALOGUE)).find((s) => s.index === 1)!;
  expect(set.questions[0]).toBe(QUESTION);
  model = splitModelAnswers(set.modelAnswers, set.questions.length)[0]!;
});
const judge = (answer: string) => judgeAnswer([answer], model, QUESTION);

// The five answers that showed the old bag-of-words matcher could be gamed.
describe('the rubric judge on the probe answers to "var, let and const"', () => {
  it('gives a vague answer that only names the words no key point', () => {
    const j = judge('I think scope is important and functions are useful, let me say that const things are nice in general.');
    expect(j.covered).toEqual([]);
    expect(j.verdict).toBe('Thin answer');
    // Naming some of the points' words keeps a little of each point's share (the learned partial
    // credit), far below an answer that states one point.
    expect(j.score).toBeLessThan(30);
  });

  it('gives a wrong answer no key point and names what it contradicts', () => {
    const j = judge(
      'var, let and const are all exactly the same, there is no real difference. They are all block scoped and can be reassigned.',
    );
    expect(j.covered).toEqual([]);
    expect(j.contradicted.map((c) => c.point)).toEqual(['var is function scoped']);
    expect(j.contradicted[0]!.said).toBe('var, let and const are all exactly the same, there is no real difference.');
    expect(j.score).toBeLessThanOrEqual(20);
  });

  it('scores keyword salad at most 10 with a verdict that it was not a real answer', () => {
    const j = judge(
      'banana banana banana var let const banana scoped block function hoisting temporal dead zone mutation reassignment prefer',
    );
    expect(j).toMatchObject({ verdict: 'Not a real answer', covered: [] });
    expect(j.score).toBeLessThanOrEqual(10);
    const repeated = judge('var is function scoped. var is function scoped. var is function scoped. var is function scoped.');
    expect(repeated.verdict).toBe('Not a real answer');
    expect(repeated.score).toBeLessThanOrEqual(10);
  });

  it('credits a correct paraphrase without the keywords, quoting the sentences that earned each point', () => {
    const j = judge(
      'The old keyword lives for the whole function body, whereas the two newer ones only exist between the curly braces. ' +
        'The constant one cannot be pointed at something else, though the object it holds can still be changed. ' +
        'I reach for the constant one first and only use the other new one when the value must change.',
    );
    expect(j.covered).toEqual([
      'var is function scoped',
      'let and const are block scoped',
      'const prevents reassignment but not mutation',
      'prefer const, then let',
    ]);
    expect(j.evidence[0]).toBe(
      'The old keyword lives for the whole function body, whereas the two newer ones only exist between the curly braces.',
    );
    expect(j.evidence[3]).toBe('I reach for the constant one first and only use the other new one when the value must change.');
    expect(j.score).toBeGreaterThanOrEqual(60);
  });

  it('rates a correct, complete short answer as answered well with all five points', () => {
    const j = judge(
      'var is function scoped, while let and const are block scoped. All of them are hoisted, but let and const sit in the temporal dead zone until the declaration runs. ' +
        'const prevents reassignment of the binding but not mutation of the object. I prefer const, then let when I need to reassign.',
    );
    expect(j.covered).toHaveLength(5);
    expect(j.verdict).toBe('Answered well');
    expect(j.evidence[2]).toBe('All of them are hoisted, but let and const sit in the temporal dead zone until the declaration runs.');
  });

  it('orders the five: complete > paraphrase > vague, wrong and salad', () => {
    const complete = judge(
      'var is function scoped, while let and const are block scoped. They are hoisted into the temporal dead zone. const prevents reassignment but not mutation. I prefer const, then let.',
    ).score;
    const paraphrase = judge(
      'The old keyword lives for the whole function body, whereas the two newer ones only exist between the curly braces.',
    ).score;
    const salad = judge('var let const scoped block function hoisting temporal dead zone mutation reassignment prefer').score;
    expect(complete).toBeGreaterThan(paraphrase);
    expect(paraphrase).toBeGreaterThan(salad);
  });
});

describe('what a statement cannot be evidence for', () => {
  it('gives no credit for a question, a negation or an admission of not knowing', () => {
    expect(judge('Is var function scoped? Are let and const block scoped?').covered).toEqual([]);
    expect(judge('let and const are not block scoped.').covered).toEqual([]);
    expect(judge("I don't know what hoisting or the temporal dead zone is.").covered).toEqual([]);
    expect(judge("I'm not sure about hoisting, but var is function scoped.").covered).toEqual(['var is function scoped']);
  });

  it('does not credit a point whose words are scattered over different sentences', () => {
    expect(judge('var is a keyword. Every function has a scope.').covered).toEqual([]);
  });

  it('does not credit an answer about closures with the scoping points', () => {
    const j = judge(
      'A closure is a function that remembers the variables of the scope it was created in, even after the outer function returns. I use closures for private counters.',
    );
    expect(j.covered).toEqual([]);
    expect(j.score).toBeLessThanOrEqual(20);
  });

  it('does not let a contradiction be outweighed by a correct sentence elsewhere', () => {
    const j = judge('const prevents reassignment but not mutation. Later on, const can be reassigned anyway.');
    expect(j.covered).not.toContain('const prevents reassignment but not mutation');
    expect(j.contradicted).toEqual([
      { point: 'const prevents reassignment but not mutation', said: 'Later on, const can be reassigned anyway.' },
    ]);
  });
});

// Paraphrase matching (stems, the concept lexicon, clause splitting) must not open the door the
// evidence rule closed: these fail if a precision guard breaks.
describe('precision guards with paraphrase matching', () => {
  let models: ModelAnswer[];
  let questions: string[];
  beforeAll(async () => {
    const set = (await readCatalogue(CATALOGUE)).find((s) => s.index === 1)!;
    questions = set.questions;
    models = splitModelAnswers(set.modelAnswers, set.questions.length);
  });
  const judgeQ = (n: number, answer: string) => judgeAnswer([answer], models[n - 1], questions[n - 1]);

  it('credits a run-on paraphrase in plain words', () => {
    const j = judgeQ(
      2,
      'well a closure is basically when the inner function hangs on to the outer function variables even after the outer one has finished and returned ' +
        'so the count stays hidden and nobody else can touch it which is handy for a click counter',
    );
    expect(j.covered).toEqual(
      expect.arrayContaining([
        'inner function keeps access to outer variables after the outer function returns',
        'private state or data privacy',
      ]),
    );
    expect(j.evidence.every((e) => e.length > 0)).toBe(true);
  });

  it('still denies a negated paraphrase', () => {
    const j = judgeQ(1, "var doesn't belong to the whole function. let and const don't only live inside the curly braces.");
    expect(j.covered).not.toContain('var is function scoped');
    expect(j.covered).not.toContain('let and const are block scoped');
    expect(j.score).toBeLessThanOrEqual(20);
  });

  it('scores a salad of paraphrase words as not a real answer', () => {
    const j = judgeQ(2, 'hidden private surrounding outer returns counter debounce stale memory lexical closure function scope retention');
    expect(j).toMatchObject({ verdict: 'Not a real answer', covered: [] });
    expect(j.score).toBeLessThanOrEqual(10);
  });

  it('takes a short run of terms without one sentence word for a salad too', () => {
    const j = judgeQ(1, 'var let const block function scoped hoisting temporal dead zone');
    expect(j).toMatchObject({ verdict: 'Not a real answer', covered: [] });
    expect(j.score).toBeLessThanOrEqual(10);
  });

  it('keeps an off-topic answer full of other concepts at most 20', () => {
    const j = judgeQ(
      1,
      'We deploy to Kubernetes with three replicas behind a load balancer, roll out new versions gradually and watch the dashboards for errors and latency so we can roll back quickly.',
    );
    expect(j).toMatchObject({ verdict: 'Off topic', covered: [] });
    expect(j.score).toBeLessThanOrEqual(20);
  });

  it('gives nothing for paraphrases asked as questions', () => {
    expect(
      judgeQ(
        2,
        'Does the inner function keep the outer variables after the outer function returns? Is the count hidden so nobody else can touch it?',
      ).covered,
    ).toEqual([]);
  });
});
