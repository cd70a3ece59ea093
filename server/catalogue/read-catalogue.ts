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
import type { CatalogueSet } from '../db/schema';
import { parseModelAnswerSections } from './model-answers';

export type { CatalogueSet };

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
    /** The problem alone, as a sentence fragment ("has no questions ..."). */
    readonly problem: string,
  ) {
    super(`Question set ${file}: ${problem}`);
    this.name = 'CatalogueError';
  }
}

/**
 * gray-matter runs `---js` / `---javascript` front matter with eval, and would load a CoffeeScript
 * engine for `---coffee`: a catalogue file must never run code, so those engines only refuse.
 */
const refuseCode = () => {
  throw new Error('front matter marked as JavaScript or CoffeeScript is not allowed; write it as YAML');
};
const NO_CODE_ENGINES = { javascript: refuseCode, js: refuseCode, coffee: refuseCode, coffeescript: refuseCode, cson: refuseCode };

/** Parses one catalogue file's text; `file` names it in error messages. */
export function parseQuestionSetFile(file: string, text: string): CatalogueSet {
  let parsed: matter.GrayMatterFile<string>;
  try {
    // An options object also turns gray-matter's content cache off: the same text must parse afresh.
    parsed = matter(text, { engines: NO_CODE_ENGINES });
  } catch (error) {
    throw new CatalogueError(file, `the front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const sections = splitLevelTwoSections(parsed.content);
  const questionsText = sections.get('questions');
  if (questionsText === undefined) throw new CatalogueError(file, 'has no "## Questions" section');
  const questions = parseNumberedList(questionsText);
  const modelAnswers = sections.get('model answers')?.trim();
  if (questions.length > 0 && !modelAnswers) throw new CatalogueError(file, 'has no "## Model Answers" section');
  return checkCatalogueSet(file, { ...(parsed.data as Record<string, unknown>), questions, modelAnswers: modelAnswers ?? '' });
}

/**
 * The catalogue's rules for one set, whether it came from a file or from the admin editor:
 * front-matter fields, 1 to MAX_QUESTIONS_PER_SET one-line questions, and one model-answer
 * section per question (numbered, headed by its question, with an answer and key points).
 * Throws CatalogueError naming `file` and the first problem; answers the clean set.
 */
export function checkCatalogueSet(
  file: string,
  input: Record<string, unknown> & { questions: string[]; modelAnswers: string },
): CatalogueSet {
  const { questions, modelAnswers, ...fields } = input;
  const front = frontMatterSchema.safeParse(fields);
  if (!front.success) {
    const problems = front.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys' ? `unknown front-matter field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}` : issue.message,
    );
    throw new CatalogueError(file, problems.join('; '));
  }
  if (questions.length === 0) throw new CatalogueError(file, 'has no questions (expected a numbered list under "## Questions")');
  if (questions.length > MAX_QUESTIONS_PER_SET) {
    throw new CatalogueError(file, `has ${questions.length} questions; at most ${MAX_QUESTIONS_PER_SET} are allowed`);
  }
  questions.forEach((question, i) => {
    if (question.trim() === '' || /[\r\n]/.test(question)) throw new CatalogueError(file, `question ${i + 1} must be one line of text`);
  });
  if (!modelAnswers.trim()) throw new CatalogueError(file, 'has no "## Model Answers" section');
  checkModelAnswers(file, questions, modelAnswers.trim());
  return { ...front.data, questions, modelAnswers: modelAnswers.trim() };
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
      throw new CatalogueError(
        file,
        `model-answer section ${i + 1} is numbered ${section.number}; number them 1 to ${questions.length} in order`,
      );
    }
    if (normalise(section.heading) !== normalise(question)) {
      throw new CatalogueError(file, `model answer ${i + 1} is headed "${section.heading}" but question ${i + 1} is "${question}"`);
    }
    if (!section.answer) throw new CatalogueError(file, `model answer ${i + 1} has no example answer`);
    if (section.keyPoints.length === 0) {
      throw new CatalogueError(file, `model answer ${i + 1} has no key points (add a line "**Key points:** a; b; c")`);
    }
    const problem = section.problems[0];
    if (problem) {
      throw new CatalogueError(
        file,
        `model answer ${i + 1}: the "${problem.block}" line "${problem.line}" does not name one of its key points (write "- <key point>: phrasing | phrasing")`,
      );
    }
    // Still read, but reordering the key points would hand these phrasings to another point.
    for (const n of section.numbered) {
      console.warn(
        `Warning: ${file}: model answer ${i + 1}: the "${n.block}" line "${n.line.slice(0, 60)}" names its key point by number; name it by its text ("- <key point>: phrasing | phrasing").`,
      );
    }
  });
}
