/**
 * Matches key points against an answer's statements. A key point is earned by one statement that
 * says its distinctive words together (or one of its accepted phrasings), as a statement: not a
 * question, not negated, not a list of terms, not an admission of not knowing. A statement that
 * says a listed contradiction, or says the whole key point negated, contradicts the point, and a
 * contradicted point is not earned. The earning statement is kept as evidence.
 */
import {
  alternativesIn,
  comparedGroups,
  equatesWithOther,
  namesOnlyOne,
  orderIn,
  otherSubjectPositions,
  propertiesIn,
  saysOpposite,
  swapsOrder,
  turnedRound,
  type Order,
} from './contrasts';
import { conceptTags, contentStems, phrasesIn, tokenize } from './text-match';
import { phraseKeys, type Statement, type Token } from './statements';
import { wordList, wordSet } from './word-lists';

export interface KeyPointSpec {
  text: string;
  /** Other phrasings that state the point (from the catalogue's "Also accepted"). */
  accepted: readonly string[];
  /** Statements that get the point wrong (from the catalogue's "Contradicted by"). */
  contradictions: readonly string[];
}

export type PointStatus = 'covered' | 'missed' | 'contradicted';

export interface PointMatch {
  point: string;
  status: PointStatus;
  /** The statement that earned (or contradicted) the point; '' when missed. */
  evidence: string;
  /** 0-1: how close the best statement came (1 when covered). */
  reach: number;
}

interface Pattern {
  /** Groups of stems the question did not already say: the point's own content. A group is one
   * word, or alternatives ("result or impact", "such as a counter, debounce or event handler"). */
  own: string[][];
  /** Stems the question said ("var", "const"): some of them must be there too, so the point is about the right thing. */
  echoed: string[][];
  needOwn: number;
  needEchoed: number;
  /** The pattern itself is negative ("but not mutation"): negation words in the answer are part of saying it. */
  negative: boolean;
  /** Own groups the point denies ("without coercion", "not in conditions"): the answer must deny them too. */
  denied: ReadonlySet<number>;
  /** An "Also accepted" phrasing (nearly all its words needed) rather than the key point itself. */
  strict: boolean;
}

/** Pronouns that stand for what the question asked about ("it", "they"). */
const SUBJECT_PRONOUNS = wordSet('matcher.subjectPronouns');
/** Longest statement whose opening pronoun may stand for the question's subject. */
const PRONOUN_STATEMENT_WORDS = 12;

/** How far after a negation word its reach ends. */
const NEGATION_REACH = 5;
const NEGATIVE_PATTERN = /\b(?:not|no|never|without|cannot|neither|nor|\w+n't)\b/i;

const PATTERN_CACHE = new Map<string, Pattern>();

/** Stems of verbs a question asks with; said back in a key point they are no requirement. */
const ECHO_VERBS = wordSet('matcher.echoVerbs');
const LIGHT_WORDS = new Set(wordList('matcher.lightWords').map((w) => contentStems(w)[0] ?? w));
const NEGATION_WORDS = wordSet('matcher.negationWords');
const INSTRUCTION_WORDS = wordSet('matcher.instructionWords');
/** A key point opening with one of these tells the candidate what to do ("explain the root cause"); "EXPLAIN ANALYZE" is SQL. */
const LEADING_INSTRUCTIONS = wordSet('matcher.leadingInstructions');
const isUpperCase = (text: string, word: string) => new RegExp(`\\b${word.toUpperCase()}\\b`).test(text);

/**
 * Stem groups of a phrase: "x or y" and everything after "such as" are alternatives. With
 * `concepts`, a word's lexicon concepts say it too; an operator's "Also accepted" phrasing is
 * already the wording to look for, so it is matched without them.
 */
function stemGroups(text: string, concepts: boolean): { groups: string[][]; denied: Set<string[]> } {
  const groups: string[][] = [];
  /** Groups of the first word after a negation ("without coercion"): the point denies them. */
  const denied = new Set<string[]>();
  let denyNext = false;
  const [head = '', ...examples] = text.split(/\bsuch as\b|\be\.g\.|\bfor example\b/i);
  let joinNext = false;
  const words = tokenize(head);
  /** The group each word went to, or -1: a phrase's concept joins the groups of its words. */
  const groupOf: number[] = [];
  for (const [at, word] of words.entries()) {
    groupOf.push(-1);
    if (word === 'or') {
      joinNext = groups.length > 0;
      continue;
    }
    // "without blaming", "not mutation": the negation is the point's sense, not a word to find;
    // "explain the root cause", "concrete actions": what the candidate should do, not what they say.
    if (NEGATION_WORDS.has(word) || word.endsWith("n't")) {
      denyNext = true;
      continue;
    }
    if (INSTRUCTION_WORDS.has(word) || (at === 0 && LEADING_INSTRUCTIONS.has(word) && !isUpperCase(head, word))) continue;
    const [s] = contentStems(word);
    if (!s) continue;
    // The word, or any word of its concepts (server/rater/lexicon.ts), says it.
    // A number in a key point ("two tables") is that number, not any measurement; it keeps the
    // concepts the lexicon gives it ("301" is "permanent").
    const said = !concepts
      ? [s]
      : /^\d+$/.test(word)
        ? [s, ...conceptTags(word).filter((t) => t !== '~measure' && t !== '~status')]
        : [s, ...conceptTags(word)];
    if (joinNext) groups[groups.length - 1]!.push(...said);
    else groups.push(said);
    groupOf[at] = groups.length - 1;
    if (denyNext) denied.add(groups[groups.length - 1]!);
    joinNext = false;
    denyNext = false;
  }
  if (concepts) {
    // "key-value", "N+1", "access patterns": a phrase of the lexicon is one requirement, said by
    // its words or its concept.
    const merged = new Set<number>();
    for (const { tag, from, length } of phrasesIn(words)) {
      const own = [...new Set(groupOf.slice(from, from + length).filter((g) => g !== -1 && !merged.has(g)))];
      const [first, ...rest] = own;
      if (first === undefined) continue;
      const target = groups[first]!;
      for (const g of rest) {
        target.push(...groups[g]!);
        merged.add(g);
      }
      if (!target.includes(tag)) target.push(tag);
    }
    for (const g of [...merged].sort((a, b) => b - a)) groups.splice(g, 1);
  }
  const alternatives = tokenize(examples.join(' ')).flatMap((w) => {
    const [s] = contentStems(w);
    return s ? (concepts ? [s, ...conceptTags(w)] : [s]) : [];
  });
  if (alternatives.length > 0) groups.push(alternatives);
  // The same stem twice ("function ... function") is one requirement.
  const seen = new Set<string>();
  const kept = groups.filter((g) => {
    const key = g.join('|');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { groups: kept, denied };
}

/** `strict`: an operator's phrasing is specific, so nearly all of its words are needed. */
function pattern(text: string, echo: ReadonlySet<string>, strict: boolean): Pattern {
  const key = `${strict ? 's' : 'k'}|${[...echo].join(' ')}|${text}`;
  const cached = PATTERN_CACHE.get(key);
  if (cached) return cached;
  const { groups, denied } = stemGroups(text, !strict);
  // Echo is judged on the point's own word (a group's first stem), not on its concepts; the
  // question's verbs ("runs on many servers") are no subject the point must name.
  const verb = (g: readonly string[]) => echo.has(g[0]!) && ECHO_VERBS.has(g[0]!);
  const said0 = groups.some((g) => !verb(g)) ? groups.filter((g) => !verb(g)) : groups;
  // Words that relate a point's ideas rather than name one ("static structure enables tree
  // shaking": static and tree shaking are the point) are no requirement while two others remain.
  const heavy = said0.filter((g) => !LIGHT_WORDS.has(g[0]!));
  const said = heavy.length >= 2 ? heavy : said0;
  let own = said.filter((g) => !echo.has(g[0]!));
  let echoed = said.filter((g) => echo.has(g[0]!));
  if (own.length === 0) [own, echoed] = [echoed, []];
  const n = own.length;
  const needOwn = n <= 2 ? n : Math.ceil(n * (strict ? 0.75 : 0.6));
  // A short point ("var is function scoped" -> function, scoped) needs its subject too, or an
  // answer about functions' scope would earn it; a longer one is specific enough on its own.
  const needEchoed = n <= 2 ? Math.ceil(echoed.length / 2) : 0;
  // "avoid duplicates" is said as "don't duplicate": for such a point a negation is part of saying it.
  const prevents = groups.some((g) => g.includes('~prevent'));
  const negative = NEGATIVE_PATTERN.test(text) || prevents;
  // "prevents reassignment but not mutation" denies the prevention, not the mutation: only a
  // point that prevents nothing denies its negated words.
  const deniedOwn = new Set(prevents ? [] : own.flatMap((g, i) => (denied.has(g) ? [i] : [])));
  const result = { own, echoed, needOwn, needEchoed, negative, denied: deniedOwn, strict };
  if (PATTERN_CACHE.size > 20_000) PATTERN_CACHE.clear();
  PATTERN_CACHE.set(key, result);
  return result;
}

interface StatementMatch {
  full: boolean;
  negated: boolean;
  reach: number;
}

const NO_MATCH: StatementMatch = { full: false, negated: false, reach: 0 };

const groupsHit = (groups: readonly string[][], stems: ReadonlySet<string>): number =>
  groups.filter((g) => g.some((s) => stems.has(s))).length;

/** What a point says about which alternative, and which properties (server/rater/contrasts.ts). */
interface Sense {
  /** Alternatives the point names, as `group:side`. */
  subjects: ReadonlySet<string>;
  /** Opposite-able properties the point says, as `group:side`. */
  properties: ReadonlySet<string>;
  /** Groups of alternatives the question compares. */
  compared: ReadonlySet<number>;
  /** The point opens with "both" ("both limit how often a handler runs"): it speaks of the alternatives together. */
  both: boolean;
  /** What the point says comes first and what later, if it says an order. */
  order?: Order | undefined;
}

const NO_SENSE: Sense = { subjects: new Set(), properties: new Set(), compared: new Set(), both: false };

/** Words that deny what their clause says about a point's denied word ("you forget to remove the listener"). */
const DENIERS = wordSet('matcher.deniers');

function deniedClauses(statement: Statement): Set<number> {
  const out = new Set<number>();
  for (const t of statement.tokens) if (t.negation || DENIERS.has(t.word) || t.alts.includes('~prevent')) out.add(t.clause);
  return out;
}

function matchStatement(statement: Statement, p: Pattern, sense: Sense = NO_SENSE): StatementMatch {
  if (p.own.length === 0 || statement.question || statement.salad) return NO_MATCH;
  // Most statements are nowhere near most points: decide those from the stem set alone (the
  // partial reach then ignores negation, which only matters for a full match).
  const ownHit = groupsHit(p.own, statement.stems);
  if (ownHit === 0) return NO_MATCH;
  if (ownHit < p.needOwn) {
    return { full: false, negated: false, reach: (ownHit / p.needOwn) * (groupsHit(p.echoed, statement.stems) >= p.needEchoed ? 1 : 0.5) };
  }
  const denials = negatedPositions(statement);
  const negated = p.negative ? new Set<number>() : denials;
  // Words about another alternative than the point's ("double equals is the strict one") say
  // nothing about the point; a statement saying the opposite property says it wrong.
  const elsewhere = otherSubjectPositions(statement, sense.subjects, sense.compared);
  if (saysOpposite(statement, sense.properties, denials, elsewhere)) return NO_MATCH;
  if (sense.order && swapsOrder(statement, sense.order)) return NO_MATCH;
  if (equatesWithOther(statement, sense.subjects) || (sense.both && namesOnlyOne(statement, sense.compared))) return NO_MATCH;
  const deniedIn = p.denied.size > 0 ? deniedClauses(statement) : undefined;
  const own = new Set<number>();
  const echoed = new Set<number>();
  // The same groups counted only from words no negation reaches: "customers and orders, even
  // those with no orders" still says "customers and orders".
  const ownFree = new Set<number>();
  const echoedFree = new Set<number>();
  // Two passes: the words themselves first, then their concepts for what is still unfilled, so a
  // concept said early ("waiting ... on locks") does not take the group a later word names.
  const used = new Set<number>();
  const fill = (byConcept: boolean) =>
    statement.tokens.forEach((t, i) => {
      if (used.has(i) || (!t.stem && t.alts.length === 0) || statement.ignorance.has(t.clause) || elsewhere.has(i)) return;
      const word = byConcept
        ? (g: readonly string[]) => t.alts.some((a) => g.includes(a))
        : (g: readonly string[]) => t.stem !== '' && g.includes(t.stem);
      // A word the point denies ("without coercion") is said only in a clause that denies it too.
      const affirmed = deniedIn !== undefined && !deniedIn.has(t.clause);
      const says = (g: readonly string[], at: number, groups: readonly string[][]) =>
        word(g) && !(affirmed && groups === p.own && p.denied.has(at));
      // A word that says several of the point's groups ("suggested": propose or alternative)
      // fills one not yet filled; it still fills only one.
      const free = !negated.has(i);
      const o = pick(p.own, says, free ? ownFree : own);
      const e = o === -1 ? pick(p.echoed, says, free ? echoedFree : echoed) : -1;
      if (o !== -1) {
        own.add(o);
        if (free) ownFree.add(o);
      } else if (e !== -1) {
        echoed.add(e);
        if (free) echoedFree.add(e);
      }
      // One word fills one group, whichever pass it filled it in.
      if (o !== -1 || e !== -1) used.add(i);
    });
  fill(false);
  fill(true);
  if (own.size === 0) return NO_MATCH;
  // "if it is in the same path", "they are connected": in a short statement, a pronoun that opens
  // it stands for the question's subject.
  // Not when the question compares alternatives: "they" may be any of them.
  const standsIn =
    p.needEchoed > 0 &&
    sense.compared.size === 0 &&
    statement.tokens.length <= PRONOUN_STATEMENT_WORDS &&
    statement.tokens.slice(0, 3).some((t) => SUBJECT_PRONOUNS.has(t.word) && !statement.ignorance.has(t.clause))
      ? 1
      : 0;
  const isFull = (o: Set<number>, e: Set<number>) => o.size >= p.needOwn && e.size + standsIn >= p.needEchoed;
  // A point's own word said only under a negation ("so CPU heavy work doesn't block anything")
  // denies the point, however many of its other words are there.
  if (!p.negative && [...own].some((g) => !ownFree.has(g))) return { full: false, negated: true, reach: 0 };
  if (isFull(ownFree, echoedFree)) return { full: true, negated: false, reach: 1 };
  // The greedy fill can give a word to a group another word could have filled ("fell by seventy
  // percent": "fell" is a measure and a result, "percent" only a measure): one word per group,
  // assigned as well as possible, decides.
  if (
    ownFree.size < p.needOwn &&
    bestAssignment(
      statement,
      p,
      (i) => !negated.has(i) && !elsewhere.has(i) && !statement.ignorance.has(statement.tokens[i]!.clause),
      deniedIn,
    )
  ) {
    return { full: true, negated: false, reach: 1 };
  }
  const reach = Math.min(1, ownFree.size / Math.max(1, p.needOwn)) * (echoedFree.size >= p.needEchoed ? 1 : 0.5);
  return { full: false, negated: isFull(own, echoed), reach };
}

/**
 * Whether the statement's words, one word per group and each group once, can fill enough of the
 * point's own and echoed groups (a maximum bipartite matching, own groups first).
 */
function bestAssignment(
  statement: Statement,
  p: Pattern,
  usable: (i: number) => boolean,
  deniedIn: ReadonlySet<number> | undefined,
): boolean {
  const tokens = statement.tokens;
  const says = (i: number, g: readonly string[]) => {
    const t = tokens[i]!;
    return (t.stem !== '' && g.includes(t.stem)) || t.alts.some((a) => g.includes(a));
  };
  const candidates = (groups: readonly string[][], own: boolean) =>
    groups.map((g, at) => {
      const out: number[] = [];
      for (let i = 0; i < tokens.length; i++) {
        if (!usable(i) || !says(i, g)) continue;
        if (own && deniedIn !== undefined && !deniedIn.has(tokens[i]!.clause) && p.denied.has(at)) continue;
        out.push(i);
      }
      return out;
    });
  const owner = new Map<number, number>();
  const match = (lists: number[][], group: number, seen: Set<number>, offset: number): boolean => {
    for (const i of lists[group]!) {
      if (seen.has(i)) continue;
      seen.add(i);
      const current = owner.get(i);
      if (current === undefined || (current >= offset && current - offset < lists.length && match(lists, current - offset, seen, offset))) {
        owner.set(i, group + offset);
        return true;
      }
    }
    return false;
  };
  const ownLists = candidates(p.own, true);
  let ownCount = 0;
  for (let g = 0; g < ownLists.length; g++) if (match(ownLists, g, new Set(), 0)) ownCount += 1;
  if (ownCount < p.needOwn) return false;
  if (p.needEchoed === 0) return true;
  // Echoed groups take the words left over (offset keeps their numbers apart from the own groups').
  const echoLists = candidates(p.echoed, false);
  let echoCount = 0;
  for (let g = 0; g < echoLists.length; g++) if (match(echoLists, g, new Set(), 1000)) echoCount += 1;
  return echoCount >= p.needEchoed;
}

/** The first group the word says that is not filled yet, else the first it says, else -1. */
function pick(
  groups: readonly string[][],
  says: (g: readonly string[], at: number, all: readonly string[][]) => boolean,
  filled: ReadonlySet<number>,
): number {
  let first = -1;
  for (let i = 0; i < groups.length; i++) {
    if (!says(groups[i]!, i, groups)) continue;
    if (!filled.has(i)) return i;
    if (first === -1) first = i;
  }
  return first;
}

const DENIED_NEEDS = wordSet('matcher.deniedNeeds');
const CHECK_WORDS = wordSet('matcher.checkWords');
const WANT_WORDS = wordSet('matcher.wantWords');
const PURPOSE_SUBJECTS = wordSet('matcher.purposeSubjects');

/** "so you don't loop forever", "so that it never", "make sure it isn't": a purpose or a check, saying what is avoided, not a denial. */
function isPurpose(tokens: readonly Token[], n: number): boolean {
  const w = (k: number) => tokens[k]?.word ?? '';
  // "so you don't need try/catch" denies the need: no purpose.
  if (DENIED_NEEDS.has(w(n + 1))) return false;
  // "you don't want a thousand requests hitting the database": what is avoided, not denied.
  if (WANT_WORDS.has(w(n + 1))) return true;
  // "check the app isn't doing one query per row": what is checked for, not denied.
  // Only in the negation's own clause: "the same check, there's no conversion" denies the conversion.
  for (let k = n - 1; k >= Math.max(0, n - 4) && tokens[k]!.clause === tokens[n]!.clause; k--) if (CHECK_WORDS.has(w(k))) return true;
  if (!PURPOSE_SUBJECTS.has(w(n - 1))) return false;
  return w(n - 2) === 'so' || (w(n - 2) === 'that' && w(n - 3) === 'so');
}

/** Positions of words a negation reaches: shortly after a negation word, in the same clause ("are not block scoped"). */
function negatedPositions(statement: Statement): Set<number> {
  const positions = new Set<number>();
  const tokens = statement.tokens;
  tokens.forEach((t, n) => {
    if (!t.negation || isPurpose(tokens, n)) return;
    for (let q = n + 1; q < statement.tokens.length && q - n <= NEGATION_REACH; q++) {
      if (statement.tokens[q]!.clause !== t.clause) break;
      positions.add(q);
    }
  });
  return positions;
}

/**
 * A contradiction is matched as a word sequence, not a bag of words: "const can be reassigned"
 * and "const prevents reassignment" share their content words and differ in the small ones.
 */
const SEQUENCE_SKIP = wordSet('matcher.sequenceSkip');
/** Spoken fillers, skipped when words must come in order. */
const FILLERS = wordSet('matcher.fillers');
/** An "Also accepted" phrasing with this few content words is matched as a word sequence. */
const SHORT_PHRASING = 2;
/** Words that turn down what follows them ("instead of", "rather than", "avoid", "unlike"). */
const TURNED_DOWN = wordSet('matcher.turnedDown');
/** Words the candidate may put between two words of the sequence ("all exactly the same"). */
const SEQUENCE_GAP = 2;

const SEQUENCE_CACHE = new Map<string, string[]>();

/** Memoised like PATTERN_CACHE: a catalogue's phrasings are read again for every answer rated. */
function sequence(text: string): string[] {
  const cached = SEQUENCE_CACHE.get(text);
  if (cached) return cached;
  const words = phraseKeys(text).flatMap(({ word, key }) => (SEQUENCE_SKIP.has(word) ? [] : [key]));
  if (SEQUENCE_CACHE.size > 20_000) SEQUENCE_CACHE.clear();
  SEQUENCE_CACHE.set(text, words);
  return words;
}

function saysSequence(statement: Statement, words: readonly string[], elsewhere?: (statement: Statement) => ReadonlySet<number>): boolean {
  if (words.length === 0 || statement.salad) return false;
  const keys = statement.keys;
  for (let start = 0; start < keys.length; start++) {
    if (keys[start] !== words[0]) continue;
    let at = start;
    let k = 1;
    let gap = 0;
    for (let i = start + 1; i < keys.length && k < words.length && gap <= SEQUENCE_GAP; i++) {
      if (keys[i] === words[k]) {
        at = i;
        k += 1;
        gap = 0;
      } else if (!FILLERS.has(keys[i]!)) {
        // "const, um, can be reassigned": fillers are no words between.
        gap += 1;
      }
    }
    if (k < words.length) continue;
    // "const can never be reassigned": a negation inside or just before the span denies it.
    // "send a 429 instead of returning a 503", "rather than", "avoid": the words just before turn the span down.
    const negated =
      statement.tokens.slice(Math.max(0, start - 3), at + 1).some((t) => t.negation && !words.includes(t.word)) ||
      statement.tokens.slice(Math.max(0, start - 3), start).some((t) => TURNED_DOWN.has(t.word) && !words.includes(t.word));
    // "triple equals does conversions": a phrasing said of the other alternative says nothing of the point.
    if (!negated && !statement.ignorance.has(statement.tokens[start]!.clause) && !elsewhere?.(statement).has(start)) return true;
  }
  return false;
}

interface Earned extends PointMatch {
  /** The statement that earned the point, and the pattern it matched (none for a word-sequence phrasing). */
  statement?: Statement;
  pattern?: Pattern;
}

/** A key point ready to match: its patterns, its short phrasings as word sequences, its contradictions. */
interface CompiledPoint {
  spec: KeyPointSpec;
  patterns: Array<{ p: Pattern; sense: Sense }>;
  phrases: Array<{ words: string[]; sense: Sense }>;
  wrong: string[][];
}

/** `echo`: stems of the question asked; its own words are weak evidence (see Pattern.echoed). */
function compile(spec: KeyPointSpec, echo: ReadonlySet<string>, compared: ReadonlySet<number>): CompiledPoint {
  // A phrasing may leave the point's subject unsaid ("only exist inside the curly braces"): it
  // keeps the point's; its properties are its own.
  const subjects = alternativesIn(spec.text);
  // A phrasing keeps the point's order too ("microtasks go first" still puts them before setTimeout).
  const order = orderIn(spec.text);
  const senseOf = (text: string): Sense => ({
    subjects: text === spec.text ? subjects : new Set([...subjects, ...alternativesIn(text)]),
    properties: propertiesIn(text),
    compared,
    both: /^\s*both\b/i.test(text),
    order,
  });
  const accepted = spec.accepted.map((a) => ({ p: pattern(a, echo, true), words: sequence(a), sense: senseOf(a) }));
  // A short phrasing ("ask how I am doing" is just "ask" once its small words are gone) is only
  // specific as the words in their order.
  const short = (a: { p: Pattern }) => a.p.own.length + a.p.echoed.length <= SHORT_PHRASING;
  // The point said the other way round ("not the same" / "different"): its own words, so matched as the point is.
  const turned = turnedRound(spec.text).map((t) => ({ p: pattern(t, echo, false), sense: senseOf(t) }));
  return {
    spec,
    patterns: [{ p: pattern(spec.text, echo, false), sense: senseOf(spec.text) }, ...turned, ...accepted.filter((a) => !short(a))],
    phrases: accepted.filter(short),
    wrong: spec.contradictions.map(sequence),
  };
}

/**
 * The first statement that earns the point, skipping `excluded` and `wrongStatements` (statements
 * that say a listed contradiction of any point of the question: a statement that gets one point
 * wrong is no evidence for another, "hooks can be called anywhere, inside loops or conditions"
 * states no rule of hooks).
 */
function earn(
  statements: readonly Statement[],
  point: CompiledPoint,
  wrongStatements: ReadonlySet<Statement>,
  excluded: ReadonlySet<Statement>,
): Earned {
  const { spec, patterns, phrases } = point;
  let reach = 0;
  for (const statement of statements) {
    if (wrongStatements.has(statement) || excluded.has(statement)) continue;
    if (
      !statement.question &&
      phrases.some((a) => saysSequence(statement, a.words, (st) => otherSubjectPositions(st, a.sense.subjects, a.sense.compared)))
    ) {
      return { point: spec.text, status: 'covered', evidence: statement.text, reach: 1, statement };
    }
    for (const { p, sense } of patterns) {
      const m = matchStatement(statement, p, sense);
      if (m.negated) continue;
      if (m.full) return { point: spec.text, status: 'covered', evidence: statement.text, reach: 1, statement, pattern: p };
      reach = Math.max(reach, m.reach);
    }
  }
  return { point: spec.text, status: 'missed', evidence: '', reach };
}

/**
 * Whether one statement has words enough for two points at once, each word given to one point:
 * "bind gives you back a new function" has one "bind" and one "new", so it cannot state both
 * "explicit binding with call, apply and bind" and "new binding".
 */
function statesBoth(statement: Statement, a: Pattern, b: Pattern): boolean {
  const own = [...a.own, ...b.own];
  const joint: Pattern = {
    own,
    echoed: [],
    needOwn: a.needOwn + b.needOwn,
    needEchoed: 0,
    negative: false,
    denied: new Set(),
    strict: false,
  };
  return bestAssignment(statement, joint, (i) => !statement.ignorance.has(statement.tokens[i]!.clause), undefined);
}

/** How many more of the point's groups the statement says than it needs (words or their concepts). */
function margin(statement: Statement, p: Pattern): number {
  const said = new Set(statement.tokens.flatMap((t) => (t.stem ? [t.stem, ...t.alts] : t.alts)));
  return groupsHit(p.own, said) - p.needOwn;
}

export function matchKeyPoints(said: readonly Statement[], specs: readonly KeyPointSpec[], question?: string): PointMatch[] {
  // A statement said twice is the same object (splitStatements): judging it once changes nothing.
  const statements = [...new Set(said)];
  const echo = new Set(question ? contentStems(question) : []);
  const compared = comparedGroups(
    question ?? '',
    specs.map((s) => s.text),
  );
  const points = specs.map((spec) => compile(spec, echo, compared));
  // A statement that says a listed contradiction contradicts its point, wherever it comes, and is
  // evidence for no point of the question.
  const contradictedBy: Array<Statement | undefined> = points.map(() => undefined);
  const wrongStatements = new Set<Statement>();
  for (const st of statements) {
    if (st.question) continue;
    points.forEach(({ wrong }, i) => {
      if (!wrong.some((w) => saysSequence(st, w))) return;
      contradictedBy[i] ??= st;
      wrongStatements.add(st);
    });
  }
  const excluded = specs.map(() => new Set<Statement>());
  const earned: Earned[] = points.map((point, i) => {
    const said = contradictedBy[i];
    return said
      ? { point: point.spec.text, status: 'contradicted', evidence: said.text, reach: 0 }
      : earn(statements, point, wrongStatements, excluded[i]!);
  });
  // Two points earned by the same statement must each have words of their own in it; when they
  // cannot, the point the statement says less of looks for another statement.
  for (let i = 0; i < earned.length; i++) {
    for (let j = i + 1; j < earned.length; j++) {
      const a = earned[i]!;
      const b = earned[j]!;
      if (a.status !== 'covered' || b.status !== 'covered' || a.statement !== b.statement || !a.pattern || !b.pattern || !a.statement)
        continue;
      if (statesBoth(a.statement, a.pattern, b.pattern)) continue;
      // An author's phrasing the statement says (strict) is surer evidence than the point's own words
      // at 60 %; between two of the same kind, the one the statement says more of. When neither is
      // surer, the statement keeps both.
      const rank = (p: Pattern) => (p.strict ? 100 : 0) + margin(a.statement!, p);
      if (rank(a.pattern) === rank(b.pattern)) continue;
      const loser = rank(a.pattern) > rank(b.pattern) ? j : i;
      excluded[loser]!.add(a.statement);
      earned[loser] = earn(statements, points[loser]!, wrongStatements, excluded[loser]!);
    }
  }
  return earned.map(({ statement: _s, pattern: _p, ...match }) => match);
}
