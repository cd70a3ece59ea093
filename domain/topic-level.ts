/**
 * docs/product-rules.md, Topic tiles: a topic can have several sets of the same name (JavaScript
 * has two); a set's level is its place among them by index, and the candidate's level in a topic
 * is how many of them they have reached (the login's `topicLevels` holds the highest completed
 * index per topic name).
 */
export interface LevelSet {
  name: string;
  index: number;
}

export interface TopicLevel {
  /** The set's level in its topic, 1 for the first. */
  level: number;
  /** How many levels (sets of that name) the topic has. */
  levels: number;
  /** The candidate's level in the topic: the topic's sets up to their highest completed index (0: none completed). */
  reached: number;
}

export function topicLevel(sets: readonly LevelSet[], set: LevelSet, topicLevels: Record<string, number>): TopicLevel {
  const indexes = sets.filter((s) => s.name === set.name).map((s) => s.index);
  if (!indexes.includes(set.index)) indexes.push(set.index);
  const completed = topicLevels[set.name] ?? 0;
  return {
    level: indexes.filter((i) => i <= set.index).length,
    levels: indexes.length,
    reached: indexes.filter((i) => i <= completed).length,
  };
}

/** The topic header's line: "Level 2 of 2 · Your level: 1"; a topic of one set says "Level 1". */
export function topicLevelText({ level, levels, reached }: TopicLevel): string {
  const which = levels > 1 ? `Level ${level} of ${levels}` : `Level ${level}`;
  return `${which} · ${reached === 0 ? 'No level completed yet' : `Your level: ${reached}`}`;
}
