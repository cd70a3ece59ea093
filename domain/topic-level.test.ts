import { describe, expect, it } from 'vitest';
import { topicLevel, topicLevelText } from './topic-level';

const SETS = [
  { name: 'JavaScript', index: 1 },
  { name: 'JavaScript', index: 2 },
  { name: 'React', index: 3 },
  { name: 'Node.js & APIs', index: 4 },
];

describe('topic level', () => {
  it("places a set among its topic's sets by index, and reads the candidate's level from the highest completed index", () => {
    expect(topicLevel(SETS, SETS[1]!, { JavaScript: 1 })).toEqual({ level: 2, levels: 2, reached: 1 });
    expect(topicLevel(SETS, SETS[0]!, {})).toEqual({ level: 1, levels: 2, reached: 0 });
    expect(topicLevel(SETS, SETS[0]!, { JavaScript: 2 })).toEqual({ level: 1, levels: 2, reached: 2 });
    // Indexes are global: React's only set (index 3) is level 1 of React, and a React level of 3 is level 1 reached.
    expect(topicLevel(SETS, SETS[2]!, { React: 3, JavaScript: 2 })).toEqual({ level: 1, levels: 1, reached: 1 });
    // Another topic's levels do not count.
    expect(topicLevel(SETS, SETS[3]!, { JavaScript: 2 })).toEqual({ level: 1, levels: 1, reached: 0 });
  });

  it('counts a set missing from the list as one of its topic', () => {
    expect(topicLevel([], { name: 'SQL', index: 5 }, {})).toEqual({ level: 1, levels: 1, reached: 0 });
  });

  it('says which level the set is and the candidate’s own', () => {
    expect(topicLevelText({ level: 2, levels: 2, reached: 1 })).toBe('Level 2 of 2 · Your level: 1');
    expect(topicLevelText({ level: 1, levels: 2, reached: 0 })).toBe('Level 1 of 2 · No level completed yet');
    expect(topicLevelText({ level: 1, levels: 1, reached: 1 })).toBe('Level 1 · Your level: 1');
  });
});
