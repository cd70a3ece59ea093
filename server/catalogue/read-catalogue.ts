/**
 * Reads the shipped question-set catalogue (`content/question-sets/*.md`). Each file is YAML front
 * matter followed by `## Questions` (a numbered list) and `## Model Answers` (one `### n. <question>`
 * section per question with its key points). A broken file fails loudly, naming the file and the
 * problem, because a silently skipped set would change every user's progress order.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { z } from 'zod';
import type { QuestionSetRecord } from '../providers/types';
import { parseModelAnswerSections } from './model-answers';

export type CatalogueSet = Omit<QuestionSetRecord, 'id'>;

export const MAX_QUESTIONS_PER_SET = 20;

const frontMatterSchema = z
  .object({
    name: z.string({ error: '"name" (the topic) must be text' }).trim().min(1, { error: '"name" must not be empty' }).max(100),
    index: z
      .number({ error: '"index" must be a whole number of at least 1' })
      .int({ error: '"index" must be a whole number of at least 1' })
      .positive({ error: '"index" must be a whole number of at least 1' }),
    isPremium: z.boolean({ error: '"isPremium" must be true or false' }),
    requiresFeedback: z.boolean({ error: '"requiresFeedback" must be true or false' }),
    instructions: z.string({ error: '"instructions" must be text' }).max(4000).default(''),
  })
  .strict();

export class CatalogueError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`Question set ${file}: ${problem}`);
    this.name = 'CatalogueError';
  }
}

/** Parses one catalogue file's text; `file` names it in error messages. */
export function parseQuestionSetFile(file: string, text: string): CatalogueSet {
  let parsed: matter.GrayMatterFile<string>;
  try {
    // An options object turns gray-matter's content cache off: the same text must parse afresh.
    parsed = matter(text, {});
  } catch (error) {
    throw new CatalogueError(file, `the front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const front = frontMatterSchema.safeParse(parsed.data);
  if (!front.success) {
    const problems = front.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys' ? `unknown front-matter field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}` : issue.message,
    );
    throw new CatalogueError(file, problems.join('; '));
  }

  const sections = splitLevelTwoSections(parsed.content);
  const questionsText = sections.get('questions');
  if (questionsText === undefined) throw new CatalogueError(file, 'has no "## Questions" section');
  const questions = parseNumberedList(questionsText);
  if (questions.length === 0) throw new CatalogueError(file, 'has no questions (expected a numbered list under "## Questions")');
  if (questions.length > MAX_QUESTIONS_PER_SET) {
    throw new CatalogueError(file, `has ${questions.length} questions; at most ${MAX_QUESTIONS_PER_SET} are allowed`);
  }

  const modelAnswers = sections.get('model answers')?.trim();
  if (!modelAnswers) throw new CatalogueError(file, 'has no "## Model Answers" section');
  checkModelAnswers(file, questions, modelAnswers);

  return { ...front.data, questions, modelAnswers };
}

/** Reads every `*.md` file of `dir`, checks indexes are unique, and returns the sets by index. */
export async function readCatalogue(dir: string): Promise<CatalogueSet[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
  } catch (error) {
    throw new Error(`Cannot read the question-set catalogue at ${dir}: ${(error as Error).message}`);
  }
  if (names.length === 0) throw new Error(`The question-set catalogue at ${dir} has no .md files.`);

  const sets: CatalogueSet[] = [];
  const fileByIndex = new Map<number, string>();
  for (const name of names) {
    const file = path.join(dir, name);
    const set = parseQuestionSetFile(file, await readFile(file, 'utf8'));
    const other = fileByIndex.get(set.index);
    if (other) throw new CatalogueError(file, `duplicate index ${set.index} (also used by ${other})`);
    fileByIndex.set(set.index, file);
    sets.push(set);
  }
  return sets.sort((a, b) => a.index - b.index);
}

/** `## Heading` (lower-cased) -> the text under it. Fenced code is not special: the format has none. */
function splitLevelTwoSections(content: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | null = null;
  let lines: string[] = [];
  for (const line of content.split(/\r?\n/)) {
    const heading = /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading && !line.startsWith('###')) {
      if (current !== null) sections.set(current, lines.join('\n'));
      current = (heading[1] ?? '').toLowerCase();
      lines = [];
    } else if (current !== null) {
      lines.push(line);
    }
  }
  if (current !== null) sections.set(current, lines.join('\n'));
  return sections;
}

/** A numbered list; indented lines continue the previous item (long questions may wrap). */
function parseNumberedList(text: string): string[] {
  const items: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const item = /^\s{0,3}\d+[.)]\s+(.*)$/.exec(line);
    if (item) items.push((item[1] ?? '').trim());
    else if (items.length > 0 && /^\s+\S/.test(line)) items[items.length - 1] += ` ${line.trim()}`;
  }
  return items.filter((q) => q.length > 0);
}

function normalise(text: string): string {
  return text.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function checkModelAnswers(file: string, questions: string[], modelAnswers: string): void {
  const sections = parseModelAnswerSections(modelAnswers);
  if (sections.length !== questions.length) {
    throw new CatalogueError(
      file,
      `has ${questions.length} questions but ${sections.length} model-answer sections (expected one "### n. <question>" per question)`,
    );
  }
  sections.forEach((section, i) => {
    const question = questions[i] ?? '';
    if (section.number !== i + 1) {
      throw new CatalogueError(file, `model-answer section ${i + 1} is numbered ${section.number}; number them 1 to ${questions.length} in order`);
    }
    if (normalise(section.heading) !== normalise(question)) {
      throw new CatalogueError(file, `model answer ${i + 1} is headed "${section.heading}" but question ${i + 1} is "${question}"`);
    }
    if (!section.answer) throw new CatalogueError(file, `model answer ${i + 1} has no example answer`);
    if (section.keyPoints.length === 0) {
      throw new CatalogueError(file, `model answer ${i + 1} has no key points (add a line "**Key points:** a; b; c")`);
    }
  });
}
