import { describe, expect, it } from 'vitest';
import { countFillers, deliveryFigures, formatDeliveryMarkdown } from './delivery-figures';

const counts = (text: string) => Object.fromEntries(countFillers(text));

describe('countFillers', () => {
  it('counts um and uh in their spoken spellings', () => {
    expect(counts('Um, umm, uhm, so uh, uhh, erm.')).toEqual({ um: 4, uh: 2 });
  });

  it('counts "like" only where it is a filler', () => {
    expect(counts("I'd like to add, it looks like a map, and it's like a cache.")).toEqual({});
    // A preposition: an example or a comparison.
    expect(counts('It was like a loop counter. Like the map above, it keeps keys. Like when you retry, and like in SQL.')).toEqual({});
    expect(counts('It was like, really slow. Like, we had no index, and like we waited.')).toEqual({ like: 3 });
  });

  it('tells "you know", "kind of" and "sort of" fillers from their meaningful uses', () => {
    expect(counts('Do you know how it works? What kind of index? That sort of thing.')).toEqual({});
    expect(counts('It is, you know, kind of slow and sort of fragile.')).toEqual({ 'you know': 1, 'kind of': 1, 'sort of': 1 });
  });

  it('counts basically and actually every time', () => {
    expect(counts('Basically it actually works, basically.')).toEqual({ basically: 2, actually: 1 });
  });
});

describe('deliveryFigures', () => {
  it('measures pace over the whole session without timings', () => {
    const figures = deliveryFigures(
      [
        { role: 'interviewer', transcript: 'What is a cache?' },
        { role: 'interviewee', transcript: 'Um a fast copy of data kept close to where it is read.' },
      ],
      120,
    );
    expect(figures).toEqual({
      wordsSpoken: 13,
      answers: 1,
      averageAnswerWords: 13,
      typedAnswers: 0,
      typedWords: 0,
      basis: 'session',
      minutes: 2,
      wordsPerMinute: 7,
      fillerCount: 1,
      fillersPerMinute: 0.5,
      fillers: [{ word: 'um', count: 1 }],
    });
    expect(formatDeliveryMarkdown(figures)).toBe(
      [
        '## Delivery',
        '',
        '- Words spoken: 13 in 1 answer (about 13 words per answer)',
        "- Pace over the whole session: about 7 of your words per minute (no per-answer timings, so this includes the interviewer's turns)",
        '- Filler words: 1 (0.5 per minute): "um" 1',
      ].join('\n'),
    );
  });

  it('uses answer time from the timings: each answer since the line before it', () => {
    const figures = deliveryFigures(
      [
        { role: 'interviewer', transcript: 'Question one?', at: 5_000 },
        { role: 'interviewee', transcript: 'one two three four five six seven eight nine ten', at: 35_000 },
        { role: 'interviewer', transcript: 'Question two?', at: 40_000 },
        { role: 'interviewee', transcript: 'one two three four five six seven eight nine ten', at: 70_000 },
      ],
      600,
    );
    expect(figures.basis).toBe('answer-time');
    expect(figures.minutes).toBe(1);
    expect(figures.wordsPerMinute).toBe(20);
    expect(formatDeliveryMarkdown(figures)).toContain(
      '- Speaking pace: about 20 words per minute while answering (including pauses to think)',
    );
  });

  it('reports nothing per minute when there is neither timing nor duration', () => {
    const figures = deliveryFigures([{ role: 'interviewee', transcript: 'Hello there.' }], 0);
    expect(figures.basis).toBeNull();
    expect(formatDeliveryMarkdown(figures)).toBe(
      [
        '## Delivery',
        '',
        '- Words spoken: 2 in 1 answer (about 2 words per answer)',
        '- Speaking pace: not available (the session had no timings)',
        '- Filler words: none heard',
      ].join('\n'),
    );
  });
});

describe('typed answers', () => {
  const typed = (transcript: string, at: number) => ({ role: 'interviewee' as const, transcript, at, input: 'typed' as const });

  it('gives a typed session no pace and no filler words, only what was typed', () => {
    const figures = deliveryFigures(
      [
        { role: 'interviewer', transcript: 'Question one?', at: 1_000 },
        typed('Um, basically like, a closure keeps its variables.', 2_000),
        { role: 'interviewer', transcript: 'Question two?', at: 3_000 },
        typed('A promise is a value that arrives later.', 4_000),
      ],
      60,
    );
    expect(figures).toMatchObject({
      wordsSpoken: 16,
      answers: 2,
      typedAnswers: 2,
      typedWords: 16,
      basis: null,
      wordsPerMinute: null,
      fillerCount: 0,
      fillers: [],
    });
    expect(formatDeliveryMarkdown(figures)).toBe(
      [
        '## Delivery',
        '',
        '- Typed answers: 16 words in 2 answers (about 8 words per answer)',
        '- Speaking pace and filler words: not measured, because the answers were typed',
      ].join('\n'),
    );
  });

  it('measures pace and fillers on the spoken answers of a mixed session and lists the typed ones apart', () => {
    const figures = deliveryFigures(
      [
        { role: 'interviewer', transcript: 'Question one?', at: 0 },
        { role: 'interviewee', transcript: 'um one two three four five six seven eight nine', at: 30_000 },
        { role: 'interviewer', transcript: 'Question two?', at: 31_000 },
        typed('Um a typed answer of many many words written at once.', 32_000),
      ],
      600,
    );
    expect(figures).toMatchObject({ basis: 'answer-time', minutes: 0.5, wordsPerMinute: 20, fillerCount: 1 });
    expect(formatDeliveryMarkdown(figures)).toBe(
      [
        '## Delivery',
        '',
        '- Words spoken: 10 in 1 answer (about 10 words per answer)',
        '- Speaking pace: about 20 words per minute while answering (including pauses to think)',
        '- Filler words: 1 (2 per minute): "um" 1',
        '- Typed answers: 11 words in 1 answer (about 11 words per answer), not counted in the pace or filler words',
      ].join('\n'),
    );
  });

  it('says "1 word", not "1 words"', () => {
    const figures = deliveryFigures(
      [
        { role: 'interviewer', transcript: 'Question one?', at: 0 },
        { role: 'interviewee', transcript: 'Yes.', at: 2_000, input: 'typed' },
      ],
      10,
    );
    expect(formatDeliveryMarkdown(figures)).toContain('- Typed answers: 1 word in 1 answer (about 1 word per answer)');
  });
});
