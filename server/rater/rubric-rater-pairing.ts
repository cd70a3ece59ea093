/**
 * Pairs each question of a set with what the candidate said in answer to it
 * (docs/decisions/031-answers-go-to-the-question-asked.md).
 *
 * 1. The server knows: an interviewer line that carries `askedQuestion` (the scripted interviewer's,
 *    stored by the server) goes to that question, and a line without one (a closing) stays with the
 *    question before it. Nothing is guessed.
 * 2. Otherwise (a language model's lines) words and order decide, and meaning breaks what they leave
 *    open. Lines are matched to questions by weighted word overlap, walking forward in order: the
 *    expected next question needs less overlap than a jump ahead, so paraphrased questions still
 *    match while greetings, follow-ups and acknowledgements stay with the current question. Figures
 *    count: a number or a label ("a reading of 1.5", "bulb A") that the line names and another
 *    question has, and this one not, rules this one out. Then order fills what words missed: the
 *    interviewer asks the questions in order (interviewer-instructions.ts), so a question the walk
 *    jumped over was asked by the last open question line before the jump, unless that line reads
 *    more like the current question (a follow-up) by words or, where the sentence model runs, by meaning.
 */
import type { TranscriptEntry } from '../../contract';
import type { SentenceMeaning } from './sentence-meaning';
import { contentStems } from './text-match';

export interface PairedAnswer {
  /** The candidate's turns given while this question was current. */
  turns: string[];
  /** The interviewer lines matched to this question (the ask and any follow-ups). */
  asked: boolean;
}

/** Share of the question's (weighted) words a line must contain to count as asking it. */
const NEXT_QUESTION_THRESHOLD = 0.3;
const JUMP_THRESHOLD = 0.55;
/** How much closer by meaning a line must be to the current question than to a skipped one to stay a follow-up. */
const FOLLOW_UP_MEANING_MARGIN = 0.05;

interface WeightedQuestion {
  stems: Set<string>;
  /** The numbers and labels the question names ("0", "1.5", "~a" for "bulb A"). */
  figures: Set<string>;
  weights: Map<string, number>;
  total: number;
}

const DECIMAL = /\d+\.\d+/g;
/** "10,000" is one number: the commas that group thousands go. */
const GROUPED = /\b\d{1,3}(?:,\d{3})+\b/g;
/** A one-letter label inside a sentence ("bulb A", "switch X"), not the article "A" that starts one, nor "I". */
const LABEL = /(?<=[\p{L}\p{N},] )[A-HJ-Z](?![\p{L}\p{N}'])/gu;

/**
 * The words a line or question is compared by: content stems, with whole decimal numbers ("1.5",
 * which contentStems splits into "1" and "5") and one-letter labels (which it drops) added, as
 * figures. Figures tell apart questions that differ only by them.
 */
function pairingWords(written: string): { stems: Set<string>; figures: Set<string> } {
  const text = written.replace(GROUPED, (n) => n.replace(/,/g, ''));
  const decimals = text.match(DECIMAL) ?? [];
  const labels = (text.match(LABEL) ?? []).map((l) => `~${l.toLowerCase()}`);
  const stems = contentStems(text.replace(DECIMAL, ' ').replace(LABEL, ' '));
  const figures = new Set([...stems.filter((s) => /^\d+$/.test(s)), ...decimals, ...labels]);
  return { stems: new Set([...stems, ...figures]), figures };
}

function weighQuestions(questions: readonly string[]): WeightedQuestion[] {
  const words = questions.map(pairingWords);
  const documentFrequency = new Map<string, number>();
  for (const { stems } of words) for (const s of stems) documentFrequency.set(s, (documentFrequency.get(s) ?? 0) + 1);
  return words.map(({ stems, figures }) => {
    // Words shared by several questions ("javascript", "react") say little about which one is asked.
    const weights = new Map([...stems].map((s) => [s, 1 / (documentFrequency.get(s) ?? 1)] as const));
    return { stems, figures, weights, total: [...weights.values()].reduce((a, b) => a + b, 0) };
  });
}

interface Line {
  stems: Set<string>;
  figures: Set<string>;
}

function matchedWeight(line: Line, question: WeightedQuestion): number {
  let hit = 0;
  for (const [s, w] of question.weights) if (line.stems.has(s)) hit += w;
  return hit;
}

/** The line names a figure that some question has and this one has not, and none of this one's. */
function namesOtherFigures(line: Line, question: WeightedQuestion, allFigures: ReadonlySet<string>): boolean {
  let other = false;
  for (const f of line.figures) {
    if (question.figures.has(f)) return false;
    if (allFigures.has(f)) other = true;
  }
  return other;
}

function similarity(line: Line, question: WeightedQuestion, allFigures: ReadonlySet<string>): number {
  if (question.total === 0 || namesOtherFigures(line, question, allFigures)) return 0;
  return matchedWeight(line, question) / question.total;
}

/** The set's question (0-based) each interviewer line asked as the server recorded it; null where it did not. */
function knownQuestions(questionCount: number, transcripts: readonly TranscriptEntry[]): Array<number | null> | null {
  const known = transcripts.map((e) =>
    e.role === 'interviewer' && e.askedQuestion !== undefined && e.askedQuestion < questionCount ? e.askedQuestion : null,
  );
  return known.some((k) => k !== null) ? known : null;
}

export function pairAnswers(
  questions: readonly string[],
  transcripts: readonly TranscriptEntry[],
  /** The sentence model's lookup over pairingTextsToEmbed's texts; without it words and order alone decide. */
  meaning?: SentenceMeaning,
): PairedAnswer[] {
  const paired: PairedAnswer[] = questions.map(() => ({ turns: [], asked: false }));
  if (questions.length === 0) return paired;
  const hasInterviewer = transcripts.some((e) => e.role === 'interviewer' && e.transcript.trim());
  if (!hasInterviewer) {
    // No interviewer lines at all (e.g. only the candidate was transcribed): answers in order.
    transcripts
      .filter((e) => e.role === 'interviewee' && e.transcript.trim())
      .forEach((e, i) => paired[Math.min(i, questions.length - 1)]?.turns.push(e.transcript));
    return paired;
  }

  const known = knownQuestions(questions.length, transcripts);
  const targets = known ?? guessQuestions(questions, transcripts, meaning);
  let current = -1;
  transcripts.forEach((entry, i) => {
    if (entry.role === 'interviewer') {
      const target = targets[i];
      if (target !== null && target !== undefined) current = target;
      if (current >= 0) paired[current]!.asked = true;
    } else if (current >= 0 && entry.transcript.trim()) {
      paired[current]!.turns.push(entry.transcript);
    }
  });
  return paired;
}

/**
 * The texts pairAnswers may ask the sentence model about for this transcript: the questions and
 * the open lines (asking something, matched by no question's words), when words left a question
 * unasked. Empty when words decide alone, or the server knew.
 */
export function pairingTextsToEmbed(questions: readonly string[], transcripts: readonly TranscriptEntry[]): string[] {
  if (questions.length === 0 || knownQuestions(questions.length, transcripts)) return [];
  const weighted = weighQuestions(questions);
  const allFigures = new Set(weighted.flatMap((q) => [...q.figures]));
  const lines = transcripts.map((e) => (e.role === 'interviewer' ? pairingWords(e.transcript) : null));
  const matched = walkByWords(weighted, allFigures, lines);
  const asked = new Set(matched);
  if (questions.every((_, i) => asked.has(i))) return [];
  const open = transcripts.filter((e, i) => lines[i] && matched[i] === null && e.transcript.includes('?')).map((e) => e.transcript);
  return open.length === 0 ? [] : [...questions, ...open];
}

/** For each transcript entry: the question an interviewer line asks, or null (stay where we are). */
function guessQuestions(
  questions: readonly string[],
  transcripts: readonly TranscriptEntry[],
  meaning: SentenceMeaning | undefined,
): Array<number | null> {
  const weighted = weighQuestions(questions);
  const allFigures = new Set(weighted.flatMap((q) => [...q.figures]));
  const lines = transcripts.map((e) => (e.role === 'interviewer' ? pairingWords(e.transcript) : null));
  const matched = walkByWords(weighted, allFigures, lines);
  if (matched.every((m) => m === null)) {
    // An interviewer who paraphrased every question beyond recognition: order alone, one question
    // per interviewer line that asks something.
    let current = -1;
    return transcripts.map((entry) => {
      if (entry.role !== 'interviewer' || !entry.transcript.includes('?')) return null;
      current = Math.min(current + 1, questions.length - 1);
      return current;
    });
  }
  fillByOrder(questions, transcripts, weighted, allFigures, lines, matched, meaning);
  return matched;
}

function walkByWords(weighted: WeightedQuestion[], allFigures: ReadonlySet<string>, lines: Array<Line | null>): Array<number | null> {
  let current = -1;
  return lines.map((line) => {
    if (!line) return null;
    const sim = (i: number) => similarity(line, weighted[i]!, allFigures);
    const next = current + 1;
    if (next < weighted.length && sim(next) >= NEXT_QUESTION_THRESHOLD) {
      // Prefer a later question if the line clearly asks that one instead (a skipped question).
      // On equal shares, the question with more of its words in the line wins (a short question
      // like "What is a cache?" is fully contained in "How do you invalidate cached data?").
      const better = bestFrom(sim, weighted.length, next + 1);
      const nextScore = sim(next);
      const jump =
        better !== null &&
        better.score >= JUMP_THRESHOLD &&
        (better.score > nextScore ||
          (better.score === nextScore && matchedWeight(line, weighted[better.index]!) > matchedWeight(line, weighted[next]!)));
      current = jump ? better.index : next;
      return current;
    }
    const ahead = bestFrom(sim, weighted.length, next + 1);
    if (ahead && ahead.score >= JUMP_THRESHOLD) {
      current = ahead.index;
      return current;
    }
    // Going back (the candidate asked to revisit an earlier question) needs a clear match too.
    const behind = bestFrom(sim, weighted.length, 0, current);
    if (behind && behind.score >= JUMP_THRESHOLD && behind.index !== current) {
      current = behind.index;
      return current;
    }
    // Few shared words, but the figure of exactly one other question ("And the one at 1.5?", "And bulb A?").
    const byFigure = onlyQuestionNamed(line, weighted, allFigures);
    if (byFigure !== null && byFigure !== current) {
      current = byFigure;
      return current;
    }
    return null;
  });
}

/**
 * Order fills what words missed (in place): where the walk went from question c straight to a
 * later one, or ended at c with questions after it never asked, each question in between was asked
 * by one of the open lines after c's answer (lines that match nothing and ask something), the last
 * ones first, since a follow-up of c comes before the next question. A line that reads more like c
 * (its words, or by meaning when the model runs) stays c's follow-up. After the last recognised
 * question only meaning may move on: nothing later says the interviewer went further.
 */
function fillByOrder(
  questions: readonly string[],
  transcripts: readonly TranscriptEntry[],
  weighted: WeightedQuestion[],
  allFigures: ReadonlySet<string>,
  lines: Array<Line | null>,
  matched: Array<number | null>,
  meaning: SentenceMeaning | undefined,
): void {
  const asks = matched.flatMap((m, i) => (m === null ? [] : [i]));
  const askedAnywhere = new Set(asks.map((i) => matched[i]!));
  asks.forEach((at, k) => {
    const from = matched[at]!;
    const end = asks[k + 1] ?? transcripts.length;
    const to = k + 1 < asks.length ? matched[asks[k + 1]!]! : questions.length;
    const skipped: number[] = [];
    for (let q = from + 1; q < to; q++) if (!askedAnywhere.has(q)) skipped.push(q);
    if (skipped.length === 0) return;
    const open = openLines(transcripts, at, end);
    const trailing = k + 1 === asks.length;
    // The last open lines ask the skipped questions, in order.
    const taken = open.slice(-skipped.length);
    const first = skipped.length - taken.length;
    taken.forEach((lineIndex, j) => {
      const q = skipped[first + j]!;
      const text = transcripts[lineIndex]!.transcript;
      const line = lines[lineIndex]!;
      const words = similarity(line, weighted[q]!, allFigures) - similarity(line, weighted[from]!, allFigures);
      const near = meaning?.closeness(text, questions[q]!);
      const nearCurrent = meaning?.closeness(text, questions[from]!);
      const byMeaning = near !== undefined && nearCurrent !== undefined ? near - nearCurrent : undefined;
      const moves =
        words > 0 ||
        (words === 0 &&
          (byMeaning !== undefined ? byMeaning > (trailing ? FOLLOW_UP_MEANING_MARGIN : -FOLLOW_UP_MEANING_MARGIN) : !trailing));
      if (moves) {
        matched[lineIndex] = q;
        askedAnywhere.add(q);
      }
    });
  });
}

/** Interviewer lines after `from` and before `to` that ask something, each after an answer was given. */
function openLines(transcripts: readonly TranscriptEntry[], from: number, to: number): number[] {
  const open: number[] = [];
  let answered = false;
  for (let i = from + 1; i < to; i++) {
    const entry = transcripts[i]!;
    if (entry.role === 'interviewee') answered ||= entry.transcript.trim() !== '';
    else if (answered && entry.transcript.includes('?')) {
      open.push(i);
      answered = false;
    }
  }
  return open;
}

/** The one question whose figures the line names (and no other question's), or null. */
function onlyQuestionNamed(line: Line, weighted: WeightedQuestion[], allFigures: ReadonlySet<string>): number | null {
  let found: number | null = null;
  for (let i = 0; i < weighted.length; i++) {
    const q = weighted[i]!;
    if (namesOtherFigures(line, q, allFigures) || ![...line.figures].some((f) => q.figures.has(f))) continue;
    if (found !== null) return null;
    found = i;
  }
  return found;
}

function bestFrom(sim: (i: number) => number, count: number, from: number, to = count): { index: number; score: number } | null {
  let best: { index: number; score: number } | null = null;
  for (let i = Math.max(0, from); i < Math.min(to, count); i++) {
    const score = sim(i);
    if (!best || score > best.score) best = { index: i, score };
  }
  return best;
}
