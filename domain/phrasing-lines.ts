/**
 * The question-set editor's edits of a set's model-answer Markdown (docs/question-sets.md, "The
 * format"): the key points of one `### n.` section, and a phrasing added to its `**Also
 * accepted:**` or `**Contradicted by:**` block, on the bullet that names the key point by its text
 * (a new bullet, or a new block after the key points, when there is none). The lines are read the
 * way the catalogue reads them: server/catalogue/model-answers.ts parses with the line patterns and
 * the key-point cleaning below (a server test holds the two to the same key points on every shipped set).
 */

export type PhrasingBlock = 'Also accepted' | 'Contradicted by';

/** `### 1. Question` */
export const HEADING = /^###\s+(\d+)[.)]\s*(.*)$/;
/** `**Key points:** a; b` / `Key points: a; b` / `**Key points**` followed by bullets. */
export const KEY_POINTS = /^\s*(?:\*\*|__)?key points\s*:?\s*(?:\*\*|__)?\s*:?\s*(.*)$/i;
export const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/;
/** `**Also accepted:**` / `**Contradicted by:**` (bold optional). */
export const PHRASING_BLOCK = /^\s*(?:\*\*|__)?(also accepted|contradicted by)\s*:?\s*(?:\*\*|__)?\s*:?\s*$/i;

/** A key point as written, without Markdown emphasis and a closing `.` or `;`. */
export function cleanPoint(point: string): string {
  return point
    .replace(/[*_`]/g, '')
    .trim()
    .replace(/[.;]+$/, '')
    .trim();
}

/** The lines of the first `### n.` section: [first line after its heading, the next heading or the end). */
function sectionRange(lines: readonly string[], questionNumber: number): { start: number; end: number } | null {
  const at = lines.findIndex((line) => Number(HEADING.exec(line)?.[1]) === questionNumber);
  if (at < 0) return null;
  const next = lines.findIndex((line, i) => i > at && HEADING.test(line));
  return { start: at + 1, end: next < 0 ? lines.length : next };
}

function keyPointsOf(section: readonly string[]): string[] {
  const keyPoints: string[] = [];
  let mode: 'answer' | 'keyPoints' | 'phrasings' = 'answer';
  for (const line of section) {
    const keyLine = KEY_POINTS.exec(line);
    if (keyLine) {
      const inline = (keyLine[1] ?? '').trim();
      if (inline) keyPoints.push(...inline.split(';').map(cleanPoint).filter(Boolean));
      mode = 'keyPoints';
      continue;
    }
    if (PHRASING_BLOCK.test(line)) {
      mode = 'phrasings';
      continue;
    }
    if (mode === 'answer') continue;
    const bullet = BULLET.exec(line);
    if (bullet) {
      if (mode === 'keyPoints') {
        const text = cleanPoint(bullet[1] ?? '');
        if (text) keyPoints.push(text);
      }
      continue;
    }
    if (line.trim() !== '') mode = 'answer';
  }
  return keyPoints;
}

/** The key points of question `questionNumber` (1-based), as the rater reads them; [] without its section. */
export function sectionKeyPoints(modelAnswers: string, questionNumber: number): string[] {
  const lines = modelAnswers.split(/\r?\n/);
  const range = sectionRange(lines, questionNumber);
  return range ? keyPointsOf(lines.slice(range.start, range.end)) : [];
}

/** A phrasing as a bullet can hold it: one line, no `|` (the separator) and no Markdown marks. */
export function cleanPhrasing(text: string): string {
  return text
    .replace(/[|*_`]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.;!?]+$/, '')
    .trim();
}

/** The key point a bullet names: the longest key point its text starts with, followed by a colon. */
function bulletPoint(text: string, keyPoints: readonly string[]): string | null {
  const lower = cleanPoint(text).toLowerCase();
  let found: string | null = null;
  for (const point of keyPoints) {
    if (lower.startsWith(`${point.toLowerCase()}:`) && (found === null || point.length > found.length)) found = point;
  }
  return found;
}

export type PhrasingEdit = { ok: true; modelAnswers: string } | { ok: false; error: string };

/**
 * Adds `phrasing` for `keyPoint` of question `questionNumber` to the section's `block`: after the
 * phrasings of the (last) bullet naming that key point, else as a new bullet at the block's end, else in a
 * new block (Also accepted before Contradicted by) at the section's end. A phrasing the bullet
 * already holds is not added twice.
 */
export function addPhrasing(
  modelAnswers: string,
  questionNumber: number,
  keyPoint: string,
  block: PhrasingBlock,
  phrasing: string,
): PhrasingEdit {
  const text = cleanPhrasing(phrasing);
  if (!text) return { ok: false, error: 'There is nothing to add: the phrasing is empty.' };
  const newline = modelAnswers.includes('\r\n') ? '\r\n' : '\n';
  const lines = modelAnswers.split(/\r?\n/);
  const range = sectionRange(lines, questionNumber);
  if (!range) return { ok: false, error: `The model answers have no section "### ${questionNumber}." for question ${questionNumber}.` };
  const keyPoints = keyPointsOf(lines.slice(range.start, range.end));
  const point = keyPoints.find((p) => p.toLowerCase() === keyPoint.trim().toLowerCase());
  if (!point) return { ok: false, error: `Question ${questionNumber} has no key point "${keyPoint.trim()}".` };

  const headerAt = (wanted: PhrasingBlock) => {
    for (let i = range.start; i < range.end; i++) {
      const match = PHRASING_BLOCK.exec(lines[i] ?? '');
      if (match && (match[1] ?? '').toLowerCase() === wanted.toLowerCase()) return i;
    }
    return -1;
  };
  const header = headerAt(block);
  const bullet = `- ${point}: ${text}`;
  if (header >= 0) {
    // The block's bullets: from its header over bullets and blank lines; the point's last bullet takes the phrasing.
    let last = header;
    let own = -1;
    for (let i = header + 1; i < range.end; i++) {
      const line = lines[i] ?? '';
      const item = BULLET.exec(line);
      if (item) {
        last = i;
        if (bulletPoint(item[1] ?? '', keyPoints) !== point) continue;
        own = i;
        const held = cleanPoint(item[1] ?? '')
          .slice(point.length + 1)
          .split('|')
          .map((p) => cleanPoint(p).toLowerCase());
        if (held.includes(text.toLowerCase())) return { ok: true, modelAnswers };
      } else if (line.trim() !== '') break;
    }
    if (own >= 0) {
      lines[own] = `${(lines[own] ?? '').trimEnd()} | ${text}`;
      return { ok: true, modelAnswers: lines.join(newline) };
    }
    lines.splice(last + 1, 0, ...(last === header ? ['', bullet] : [bullet]));
    return { ok: true, modelAnswers: lines.join(newline) };
  }
  // A new block: Also accepted goes before an existing Contradicted by block, else at the section's end.
  const contradictedAt = block === 'Also accepted' ? headerAt('Contradicted by') : -1;
  if (contradictedAt >= 0) {
    lines.splice(contradictedAt, 0, `**${block}:**`, '', bullet, '');
    return { ok: true, modelAnswers: lines.join(newline) };
  }
  let end = range.end;
  while (end > range.start && (lines[end - 1] ?? '').trim() === '') end--;
  const trailing = end < range.end || range.end < lines.length ? [''] : [];
  lines.splice(end, range.end - end, '', `**${block}:**`, '', bullet, ...trailing);
  return { ok: true, modelAnswers: lines.join(newline) };
}
