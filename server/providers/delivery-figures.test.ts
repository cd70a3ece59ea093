import { describe, expect, it } from 'vitest';
import { countFillers, deliveryFigures, formatDeliveryMarkdown } from './delivery-figures';

const counts = (text: string) => Object.fromEntries(countFillers(text));

describe('countFillers', () => {
  it('counts um and uh in their spoken spellings', () => {
    expect(counts('Um, umm, uhm, so uh, uhh, erm.')).toEqual({ um: 4, uh: 2 });
  });

  it('counts "like" only where it is a filler', () => {
    expect(counts("I'd like to add, it looks like a map, and it's like a cache.")).toEqual({});
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
    expect(formatDeliveryMarkdown(figures)).toContain('- Speaking pace: about 20 words per minute while answering (including pauses to think)');
  });

  it('reports nothing per minute when there is neither timing nor duration', () => {
    const figures = deliveryFigures([{ role: 'interviewee', transcript: 'Hello there.' }], 0);
    expect(figures.basis).toBeNull();
    expect(formatDeliveryMarkdown(figures)).toBe(
      ['## Delivery', '', '- Words spoken: 2 in 1 answer (about 2 words per answer)', '- Speaking pace: not available (the session had no timings)', '- Filler words: none heard'].join(
        '\n',
      ),
    );
  });
});
