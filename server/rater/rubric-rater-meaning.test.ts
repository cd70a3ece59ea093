import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelAnswer } from '../catalogue/model-answers';
import { answerTextsToEmbed, judgeAnswer } from './rubric-rater-judge';
import { loadSentenceEncoder, type SentenceEncoder } from './sentence-encoder';
import { meaningFor } from './sentence-meaning';

// An operator's own set, as in issue 32: key points in the set's jargon, no "Also accepted" lines.
const QUESTION = 'What is an HTTP cookie?';
const POINTS = [
  'A cookie is a small piece of data the server asks the browser to store, with the Set-Cookie header',
  'The browser sends the cookie back automatically with every request to the same site',
];
const MODEL: ModelAnswer = {
  answer: POINTS.join('. '),
  keyPoints: POINTS,
  accepted: POINTS.map(() => []),
  contradictions: POINTS.map(() => []),
};

let encoder: SentenceEncoder;
beforeAll(async () => {
  encoder = await loadSentenceEncoder();
}, 60_000);

async function judge(answer: string) {
  const meaning = await meaningFor(encoder, answerTextsToEmbed([answer], MODEL, QUESTION));
  return { words: judgeAnswer([answer], MODEL, QUESTION), meaning: judgeAnswer([answer], MODEL, QUESTION, meaning) };
}

describe('the rubric judge with the sentence model', () => {
  it('credits a point said in plain words, quoting the statement that earned it', async () => {
    const said = 'The browser attaches the cookie by itself every time it talks to the same site again.';
    const { words, meaning } = await judge(`The site tells your browser to keep a little note. ${said}`);
    expect(words.covered).not.toContain(POINTS[1]);
    expect(meaning.covered).toContain(POINTS[1]);
    const at = meaning.covered.indexOf(POINTS[1]!);
    expect(meaning.evidence[at]).toBe(said);
    expect(meaning.closeness[at]).toBeGreaterThan(0.5);
    expect(meaning.score).toBeGreaterThan(words.score);
  });

  it('does not credit, nor call close, a statement that denies the point', async () => {
    const { meaning } = await judge('The browser does not send the cookie back with the requests to the same site.');
    expect(meaning.covered).not.toContain(POINTS[1]);
    expect(meaning.nearMisses.map((n) => n.point)).not.toContain(POINTS[1]);
  });

  it('asks about the key points and the usable statements only', () => {
    expect(answerTextsToEmbed(['I store data. What do you mean?'], MODEL, QUESTION)).toEqual([...POINTS, 'I store data.']);
    expect(answerTextsToEmbed([''], MODEL, QUESTION)).toEqual([]);
  });
});
