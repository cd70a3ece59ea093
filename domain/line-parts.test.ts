import { describe, expect, it } from 'vitest';
import { settledParts, settledPartsReader, speechParts } from './line-parts';

describe('settledParts', () => {
  it('holds back the last part, which a later sentence may still join', () => {
    expect(settledParts('Welcome to the interview, it is good to have you here today. Let us')).toEqual([
      'Welcome to the interview, it is good to have you here today.',
    ]);
    // "Thanks." alone is too short a part: it waits to be joined to what follows.
    expect(settledParts('Thanks. What is a clo')).toEqual([]);
    expect(settledParts('')).toEqual([]);
  });

  it('every settled part of a draft is a part of the whole line, in the same place', () => {
    const line = 'That was clear. It helped to hear the loop example. Now, what does the event loop do? Take your time.';
    const whole = speechParts(line);
    for (let end = 1; end <= line.length; end++) {
      const settled = settledParts(line.slice(0, end));
      expect(whole.slice(0, settled.length)).toEqual(settled);
    }
  });

  it('a reader tells each settled part once, in order, as the line grows', () => {
    const told: string[][] = [];
    const reader = settledPartsReader((parts) => told.push(parts));
    expect(reader.read('Welcome to the interview, it is good to have you here')).toBe(false);
    expect(reader.read('Welcome to the interview, it is good to have you here today. Let')).toBe(true);
    expect(reader.read('Welcome to the interview, it is good to have you here today. Let us')).toBe(true);
    expect(
      reader.read(
        'Welcome to the interview, it is good to have you here today. Let us start with the first question of the set today. What',
      ),
    ).toBe(true);
    expect(told).toEqual([
      ['Welcome to the interview, it is good to have you here today.'],
      ['Let us start with the first question of the set today.'],
    ]);
    expect(reader.told()).toEqual(told.flat());
  });
});
