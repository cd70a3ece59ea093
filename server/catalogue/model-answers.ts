/**
 * Splits a set's model-answer Markdown into one entry per question. The catalogue format is one
 * `### n. <question>` section per question, each ending with its key points, either as a line
 * `**Key points:** a; b; c` or as a bullet list under a `Key points` line. Two optional blocks may
 * follow (see docs/question-sets.md): `**Also accepted:**` with bullets `- <key point>: phrasing |
 * phrasing` (other ways a candidate may state the point) and `**Contradicted by:**` with bullets of
 * the same shape (statements that get the point wrong). Raters and interviewers judge answers
 * against these key points, so the split is shared here.
 */
import { BULLET, cleanPoint, HEADING, KEY_POINTS, PHRASING_BLOCK } from '../../domain/phrasing-lines';

export interface ModelAnswer {
  /** The example answer without its key-points block (Markdown). */
  answer: string;
  keyPoints: string[];
  /** Per key point (same order): other phrasings that state it. */
  accepted: string[][];
  /** Per key point (same order): statements that contradict it. */
  contradictions: string[][];
}

/** A bullet of an `Also accepted` / `Contradicted by` block that names no key point of its section. */
export interface PhrasingProblem {
  block: 'Also accepted' | 'Contradicted by';
  line: string;
}

export interface ModelAnswerSection extends ModelAnswer {
  /** The number in the `### n.` heading. */
  number: number;
  /** The heading text after the number (normally the question). */
  heading: string;
  /** Phrasing bullets that could not be read or name no key point (for validation). */
  problems: PhrasingProblem[];
  /** Phrasing bullets that name their key point by its number, not its text (read, with a warning). */
  numbered: PhrasingProblem[];
}

/**
 * The model answers as a candidate reads them: the example answers and their key points, without
 * the rater's `Also accepted` / `Contradicted by` blocks (phrasings the rater matches and
 * misconceptions it refuses are its working material, not part of a strong answer to learn from).
 */
export function readerModelAnswers(modelAnswers: string): string {
  const kept: string[] = [];
  let skipping = false;
  for (const line of modelAnswers.split(/\r?\n/)) {
    if (PHRASING_BLOCK.test(line)) {
      skipping = true;
      continue;
    }
    if (skipping && (line.trim() === '' || BULLET.test(line))) continue;
    if (skipping && kept.length > 0 && kept.at(-1)?.trim() !== '') kept.push('');
    skipping = false;
    kept.push(line);
  }
  return kept.join('\n').trimEnd() + (modelAnswers.endsWith('\n') ? '\n' : '');
}

/** Every `### n.` section in document order, including malformed numbering (for validation). */
export function parseModelAnswerSections(modelAnswers: string): ModelAnswerSection[] {
  const sections: ModelAnswerSection[] = [];
  let current: { number: number; heading: string; lines: string[] } | null = null;
  const flush = () => {
    if (current) sections.push({ number: current.number, heading: current.heading, ...splitSection(current.lines) });
  };
  for (const line of modelAnswers.split(/\r?\n/)) {
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      current = { number: Number(heading[1]), heading: (heading[2] ?? '').trim(), lines: [] };
    } else if (current) {
      current.lines.push(line);
    }
  }
  flush();
  return sections;
}

function splitSection(lines: string[]): ModelAnswer & { problems: PhrasingProblem[]; numbered: PhrasingProblem[] } {
  const answerLines: string[] = [];
  const keyPoints: string[] = [];
  const phrasingLines: Array<{ block: PhrasingProblem['block']; line: string }> = [];
  let mode: 'answer' | 'keyPoints' | PhrasingProblem['block'] = 'answer';
  for (const line of lines) {
    const keyLine = KEY_POINTS.exec(line);
    if (keyLine) {
      const inline = (keyLine[1] ?? '').trim();
      if (inline) keyPoints.push(...splitInline(inline));
      mode = 'keyPoints';
      continue;
    }
    const block = PHRASING_BLOCK.exec(line);
    if (block) {
      mode = (block[1] ?? '').toLowerCase() === 'also accepted' ? 'Also accepted' : 'Contradicted by';
      continue;
    }
    if (mode !== 'answer') {
      const bullet = BULLET.exec(line);
      if (bullet && mode === 'keyPoints') {
        const text = cleanPoint(bullet[1] ?? '');
        if (text) keyPoints.push(text);
        continue;
      }
      if (bullet && mode !== 'keyPoints') {
        phrasingLines.push({ block: mode, line: (bullet[1] ?? '').trim() });
        continue;
      }
      if (line.trim() === '') continue;
      mode = 'answer';
    }
    answerLines.push(line);
  }
  const accepted = keyPoints.map((): string[] => []);
  const contradictions = keyPoints.map((): string[] => []);
  const problems: PhrasingProblem[] = [];
  const numbered: PhrasingProblem[] = [];
  for (const { block, line } of phrasingLines) {
    const target = phrasingTarget(line, keyPoints);
    if (!target) {
      problems.push({ block, line });
      continue;
    }
    (block === 'Also accepted' ? accepted : contradictions)[target.index]!.push(...target.phrasings);
    if (target.byNumber) numbered.push({ block, line });
  }
  return { answer: answerLines.join('\n').trim(), keyPoints, accepted, contradictions, problems, numbered };
}

/**
 * `<key point>: a | b` -> the key point's index and the phrasings. The key point is named by its
 * text (it may hold a colon itself: the longest key point the line starts with wins); a number
 * (`3: a | b`) is still read but reordering key points would hand its phrasings to another point,
 * so it is reported (`byNumber`) for a warning.
 */
function phrasingTarget(line: string, keyPoints: readonly string[]): { index: number; phrasings: string[]; byNumber: boolean } | null {
  const lower = cleanPoint(line).toLowerCase();
  let index = -1;
  let rest = '';
  keyPoints.forEach((p, i) => {
    const name = p.toLowerCase();
    if (lower.startsWith(`${name}:`) && (index === -1 || name.length > keyPoints[index]!.length)) {
      index = i;
      rest = cleanPoint(line).slice(name.length + 1);
    }
  });
  let byNumber = false;
  if (index === -1) {
    const numbered = /^\s*(\d+)\s*:(.*)$/.exec(cleanPoint(line));
    const at = numbered ? Number(numbered[1]) - 1 : -1;
    if (!numbered || at < 0 || at >= keyPoints.length) return null;
    index = at;
    rest = numbered[2] ?? '';
    byNumber = true;
  }
  const phrasings = rest
    .split('|')
    .map(cleanPoint)
    .filter((p) => p.length > 0);
  return phrasings.length === 0 ? null : { index, phrasings, byNumber };
}

function splitInline(text: string): string[] {
  return text
    .split(';')
    .map(cleanPoint)
    .filter((point) => point.length > 0);
}

/**
 * One entry per question, in question order (matched by the `### n.` number). A question without
 * a section gets an empty answer and no key points, so callers never index out of range.
 */
export function splitModelAnswers(modelAnswers: string, questionCount: number): ModelAnswer[] {
  const byNumber = new Map<number, ModelAnswer>();
  for (const section of parseModelAnswerSections(modelAnswers)) {
    if (!byNumber.has(section.number)) {
      const { answer, keyPoints, accepted, contradictions } = section;
      byNumber.set(section.number, { answer, keyPoints, accepted, contradictions });
    }
  }
  return Array.from(
    { length: questionCount },
    (_, i) => byNumber.get(i + 1) ?? { answer: '', keyPoints: [], accepted: [], contradictions: [] },
  );
}
