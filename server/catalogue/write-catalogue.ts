/**
 * Writes question sets back into the catalogue's file format (the inverse of read-catalogue.ts):
 * YAML front matter, `## Questions` as a numbered list, `## Model Answers` as stored.
 * `npm run catalogue:export` uses it so sets edited in the admin can be kept in version control.
 */
import matter from 'gray-matter';
import type { CatalogueSet } from './read-catalogue';

export function formatQuestionSetFile(set: CatalogueSet): string {
  const front = {
    name: set.name,
    index: set.index,
    isPremium: set.isPremium,
    requiresFeedback: set.requiresFeedback,
    instructions: set.instructions,
  };
  const questions = set.questions.map((question, i) => `${i + 1}. ${question}`).join('\n');
  const body = `\n## Questions\n\n${questions}\n\n## Model Answers\n\n${set.modelAnswers.trim()}\n`;
  return matter.stringify(body, front);
}

/** Index, then the topic as a slug (e.g. index 7, "System Design" gives `07-system-design` plus .md): the index keeps files in tile order, the topic makes them findable. */
export function questionSetFileName(set: Pick<CatalogueSet, 'index' | 'name'>): string {
  const slug = set.name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${String(set.index).padStart(2, '0')}-${slug || 'set'}.md`;
}
