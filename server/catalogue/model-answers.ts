/**
 * Splits a set's model-answer Markdown into one entry per question. The catalogue format is one
 * `### n. <question>` section per question, each ending with its key points, either as a line
 * `**Key points:** a; b; c` or as a bullet list under a `Key points` line. Raters and interviewers
 * judge answers against these key points, so the split is shared here.
 */

export interface ModelAnswer {
  /** The example answer without its key-points block (Markdown). */
  answer: string;
  keyPoints: string[];
}

export interface ModelAnswerSection extends ModelAnswer {
  /** The number in the `### n.` heading. */
  number: number;
  /** The heading text after the number (normally the question). */
  heading: string;
}

const HEADING = /^###\s+(\d+)[.)]\s*(.*)$/;
/** `**Key points:** a; b` / `Key points: a; b` / `**Key points**` followed by bullets. */
const KEY_POINTS = /^\s*(?:\*\*|__)?key points\s*:?\s*(?:\*\*|__)?\s*:?\s*(.*)$/i;
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/;

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

function splitSection(lines: string[]): ModelAnswer {
  const answerLines: string[] = [];
  const keyPoints: string[] = [];
  let inKeyPointList = false;
  for (const line of lines) {
    const keyLine = KEY_POINTS.exec(line);
    if (keyLine) {
      const inline = (keyLine[1] ?? '').trim();
      if (inline) keyPoints.push(...splitInline(inline));
      inKeyPointList = true;
      continue;
    }
    if (inKeyPointList) {
      const bullet = BULLET.exec(line);
      if (bullet) {
        const text = cleanPoint(bullet[1] ?? '');
        if (text) keyPoints.push(text);
        continue;
      }
      if (line.trim() === '') continue;
      inKeyPointList = false;
    }
    answerLines.push(line);
  }
  return { answer: answerLines.join('\n').trim(), keyPoints };
}

function splitInline(text: string): string[] {
  return text
    .split(';')
    .map(cleanPoint)
    .filter((point) => point.length > 0);
}

function cleanPoint(point: string): string {
  return point
    .replace(/[*_`]/g, '')
    .trim()
    .replace(/[.;]+$/, '')
    .trim();
}

/**
 * One entry per question, in question order (matched by the `### n.` number). A question without
 * a section gets an empty answer and no key points, so callers never index out of range.
 */
export function splitModelAnswers(modelAnswers: string, questionCount: number): ModelAnswer[] {
  const byNumber = new Map<number, ModelAnswer>();
  for (const section of parseModelAnswerSections(modelAnswers)) {
    if (!byNumber.has(section.number)) byNumber.set(section.number, { answer: section.answer, keyPoints: section.keyPoints });
  }
  return Array.from({ length: questionCount }, (_, i) => byNumber.get(i + 1) ?? { answer: '', keyPoints: [] });
}
