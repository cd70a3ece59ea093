/**
 * What a wrong answer in the right words gets wrong: it pins a key point's property on the other
 * alternative the question compares ("double equals is the strict one", "a left join only gives
 * you the matching rows"), or it says the opposite property ("require is asynchronous", "BFS uses
 * a stack"). Both lists are general software-interview vocabulary, not answers (see
 * server/rater/lexicon.ts for the same rule); they only take credit away.
 *
 * Format: `name: alternative | alternative | ...`, each alternative a comma list of words or
 * phrases naming it. Single words are compared by stem, phrases as word sequences.
 */
import { contentStems, rawKey } from './text-match';
import type { Statement } from './statements';
import { dataLines, wordSet } from './word-lists';

interface Entry {
  keys: string[];
  group: number;
  side: number;
}

interface Table {
  /** Entries by their first word key, longest first. */
  byFirst: Map<string, Entry[]>;
  /** Per group, the first naming of each side, as written. */
  firsts: string[][];
  /** Per group and side, its namings of one word ("different", "separate", "distinct"). */
  singles: string[][][];
}

/** Words that point back at something named earlier: after one, a clause's subject is unknown. */
const ANAPHORS = wordSet('contrasts.anaphors');
/** "let me", "let's", "let us": the verb, not the keyword. */
const LET_VERB_NEXT = wordSet('contrasts.letVerbNext');

function build(lines: readonly string[]): Table {
  const byFirst = new Map<string, Entry[]>();
  const firsts: string[][] = [];
  const singles: string[][][] = [];
  let group = 0;
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const sides = line.slice(colon + 1).split('|');
    firsts.push(sides.map((side) => side.split(',')[0]!.trim()));
    singles.push(
      sides.map((side) =>
        side
          .split(',')
          .map((n) => n.trim().toLowerCase())
          .filter((n) => /^[a-z0-9]+$/.test(n)),
      ),
    );
    sides.forEach((side, s) => {
      for (const name of side.split(',')) {
        const keys = (name.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(rawKey);
        if (keys.length === 0) continue;
        const list = byFirst.get(keys[0]!) ?? [];
        list.push({ keys, group, side: s });
        list.sort((a, b) => b.keys.length - a.keys.length);
        byFirst.set(keys[0]!, list);
      }
    });
    group += 1;
  }
  return { byFirst, firsts, singles };
}

let TABLES: { alternatives: Table; opposites: Table } | undefined;
function tables() {
  TABLES ??= { alternatives: build(dataLines('alternatives.txt')), opposites: build(dataLines('opposites.txt')) };
  return TABLES;
}

/** One naming of an alternative or a property in a word sequence. */
export interface Mention {
  from: number;
  length: number;
  group: number;
  side: number;
}

function mentions(words: readonly string[], table: Table): Mention[] {
  const keys = words.map(rawKey);
  const found: Mention[] = [];
  for (let i = 0; i < keys.length;) {
    const entry = (table.byFirst.get(keys[i]!) ?? []).find((e) => e.keys.every((k, j) => keys[i + j] === k));
    if (!entry || (words[i] === 'let' && LET_VERB_NEXT.has(words[i + 1] ?? ''))) {
      i += 1;
      continue;
    }
    found.push({ from: i, length: entry.keys.length, group: entry.group, side: entry.side });
    i += entry.keys.length;
  }
  return found;
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [];

/** Alternatives named in a text, as `group:side`. */
export function alternativesIn(text: string): Set<string> {
  return new Set(mentions(words(text), tables().alternatives).map((m) => `${m.group}:${m.side}`));
}

/**
 * Groups of alternatives a question compares: two or more of a group's alternatives are named in
 * the question, or across its key points. Only those bind a statement's words to a subject, so
 * "store" in an answer about rate limiting is no alternative to React context, and the array a
 * two-sum question hands over is no alternative to the hash map a key point names.
 */
export function comparedGroups(question: string, keyPoints: readonly string[]): Set<number> {
  const compared = new Set<number>();
  for (const texts of [[question], keyPoints]) {
    const sides = new Map<number, Set<number>>();
    for (const m of texts.flatMap((t) => mentions(words(t), tables().alternatives))) {
      const s = sides.get(m.group) ?? new Set<number>();
      s.add(m.side);
      sides.set(m.group, s);
    }
    for (const [g, s] of sides) if (s.size >= 2) compared.add(g);
  }
  return compared;
}

const STATEMENT_ALTERNATIVES = new WeakMap<Statement, Mention[]>();
const STATEMENT_OPPOSITES = new WeakMap<Statement, Mention[]>();

function cached(map: WeakMap<Statement, Mention[]>, statement: Statement, table: Table): Mention[] {
  let found = map.get(statement);
  if (!found) {
    found = mentions(
      statement.tokens.map((t) => t.word),
      table,
    );
    map.set(statement, found);
  }
  return found;
}

/**
 * Positions of a statement's words that speak about another alternative than the point's own
 * (`own`: `group:side` of the alternatives the key point names, only for compared groups). A word
 * belongs to the alternative named nearest before it in its clause, else nearest after it in its
 * clause; a clause naming none, or a pronoun in between ("it", "the other ones"), leaves it open.
 */
export function otherSubjectPositions(statement: Statement, own: ReadonlySet<string>, compared: ReadonlySet<number>): Set<number> {
  const out = new Set<number>();
  const ownGroups = new Set([...own].map((k) => Number(k.split(':')[0])));
  const groups = [...ownGroups].filter((g) => compared.has(g));
  if (groups.length === 0) return out;
  const all = cached(STATEMENT_ALTERNATIVES, statement, tables().alternatives);
  const tokens = statement.tokens;
  for (const group of groups) {
    const named = all.filter((m) => m.group === group);
    if (named.length === 0 || named.every((m) => own.has(`${group}:${m.side}`))) continue;
    const sideAt = new Map<number, number>();
    for (const m of named) for (let j = 0; j < m.length; j++) sideAt.set(m.from + j, m.side);
    tokens.forEach((t, i) => {
      let side = sideAt.get(i);
      if (side === undefined) {
        for (let k = i - 1; k >= 0 && tokens[k]!.clause === t.clause && !ANAPHORS.has(tokens[k]!.word); k--) {
          side = sideAt.get(k);
          if (side !== undefined) break;
        }
      }
      if (side === undefined) {
        for (let k = i + 1; k < tokens.length && tokens[k]!.clause === t.clause && !ANAPHORS.has(tokens[k]!.word); k++) {
          side = sideAt.get(k);
          if (side !== undefined) break;
        }
      }
      if (side !== undefined && !own.has(`${group}:${side}`)) out.add(i);
    });
  }
  return out;
}

const NEGATIONS = wordSet('contrasts.negations');
/** How far before a property a negation turns it round ("not in the same path"). */
const NEGATION_BEFORE = 4;

/** Whether a negation comes shortly before position `at` ("not in the same path", "isn't complete"). */
function negatedAt(ws: readonly string[], at: number): boolean {
  for (let k = at - 1; k >= Math.max(0, at - NEGATION_BEFORE); k--) if (NEGATIONS.has(ws[k]!) || ws[k]!.endsWith("n't")) return true;
  return false;
}

/** Number of sides of an opposites group. */
const sidesOf = (group: number): number => tables().opposites.firsts[group]?.length ?? 0;

/** Opposite properties a key point says, as `group:side`; a negated one says its other side ("not the same" is "different"). */
export function propertiesIn(text: string): Set<string> {
  const ws = words(text);
  return new Set(
    mentions(ws, tables().opposites).map((m) => {
      const side = negatedAt(ws, m.from) && sidesOf(m.group) === 2 ? 1 - m.side : m.side;
      return `${m.group}:${side}`;
    }),
  );
}

/**
 * A point that denies a two-sided property said the other way round: "A and C are not in the same
 * path" is also "A and C are in different path". Only that way: "not X" read into a point that
 * says X would let any negation in an answer through.
 */
export function turnedRound(text: string): string[] {
  const ws = words(text);
  const out: string[] = [];
  for (const m of mentions(ws, tables().opposites)) {
    if (sidesOf(m.group) !== 2 || !negatedAt(ws, m.from)) continue;
    // Any one-word naming of the other side says it ("different or separate or distinct"); the first naming when it has none.
    const namings = tables().opposites.singles[m.group]?.[1 - m.side] ?? [];
    const other = namings.length > 0 ? namings.join(' or ') : firstOf(m.group, 1 - m.side);
    if (!other) continue;
    const before = ws.slice(0, m.from);
    const k = before.findLastIndex((w) => NEGATIONS.has(w) || w.endsWith("n't"));
    const kept = before.flatMap((w, i) => (i !== k ? [w] : w.endsWith("n't") ? [w.slice(0, -3)] : []));
    out.push([...kept, other, ...ws.slice(m.from + m.length)].join(' '));
  }
  return out;
}

/**
 * The one-word namings of every opposite property (server/rater/lists/opposites.txt) one of
 * `words` names, both sides: "same" gives "different", "separate", "distinct", ...
 */
export function oppositeNamings(words: ReadonlySet<string>): string[] {
  const { singles } = tables().opposites;
  return singles.flatMap((sides) => (sides.some((side) => side.some((w) => words.has(w))) ? sides.flat() : []));
}

/** The first naming of a side of an opposites group, as written in the data file. */
const firstOf = (group: number, side: number): string | undefined => tables().opposites.firsts[group]?.[side] || undefined;

/**
 * Whether a statement says the opposite of one of the point's properties and never that property
 * itself (a denied opposite, "isn't asynchronous", says the property). `excluded`: positions that
 * speak about another alternative, whose properties are not the point's.
 */
export function saysOpposite(
  statement: Statement,
  properties: ReadonlySet<string>,
  negated: ReadonlySet<number>,
  excluded: ReadonlySet<number>,
): boolean {
  if (properties.size === 0) return false;
  const found = cached(STATEMENT_OPPOSITES, statement, tables().opposites);
  if (found.length === 0) return false;
  const opposite = new Set<number>();
  const said = new Set<number>();
  for (const m of found) {
    if (excluded.has(m.from) || ![...properties].some((p) => p.startsWith(`${m.group}:`))) continue;
    // "not asynchronous" says synchronous; "not synchronous" says its opposite.
    if (properties.has(`${m.group}:${m.side}`) !== negated.has(m.from)) said.add(m.group);
    else opposite.add(m.group);
  }
  return [...opposite].some((g) => !said.has(g));
}

/** Words that say two things are one ("the same", "identical", "interchangeable"). */
const SAME_WORDS = wordSet('contrasts.sameWords');
/** How far from a word of sameness the alternatives it speaks of are named. */
const SAMENESS_BEFORE = 8;
const SAMENESS_AFTER = 6;

function samenessAt(tokens: Statement['tokens'], i: number): boolean {
  const w = tokens[i]!.word;
  // "there is no difference", "no real difference"
  if (w === 'difference') return tokens[i - 1]?.word === 'no' || (tokens[i - 2]?.word === 'no' && tokens[i - 1]?.word === 'real');
  if (!SAME_WORDS.has(w)) return false;
  // "they are not the same" tells them apart.
  for (let k = i - 1; k >= Math.max(0, i - 4); k--) if (tokens[k]!.negation) return false;
  return true;
}

/**
 * Whether a statement says the point's alternative is the same as another ("var, let and const
 * are all exactly the same", "arrow functions work the same way as normal functions"): then it
 * states nothing that tells them apart. Both alternatives must be named close to the word of
 * sameness, so "triple equals checks the type and the value are the same" is no mix-up; nor are
 * alternatives the point itself names together ("let and const behave the same").
 */
export function equatesWithOther(statement: Statement, subjects: ReadonlySet<string>): boolean {
  if (subjects.size === 0) return false;
  const tokens = statement.tokens;
  const named = cached(STATEMENT_ALTERNATIVES, statement, tables().alternatives);
  const groups = new Set([...subjects].map((k) => Number(k.split(':')[0])));
  if (saysOneIsTheOther(tokens, named, groups, subjects)) return true;
  const at = tokens.flatMap((_, i) => (samenessAt(tokens, i) ? [i] : []));
  if (at.length === 0) return false;
  return at.some((i) =>
    [...groups].some((g) => {
      const near = named
        .filter((m) => m.group === g && m.from >= i - SAMENESS_BEFORE && m.from <= i + SAMENESS_AFTER)
        .map((m) => `${g}:${m.side}`);
      return near.some((k) => subjects.has(k)) && near.some((k) => !subjects.has(k));
    }),
  );
}

const COPULAS = wordSet('contrasts.copulas');
/** The only other words that may stand between an alternative, "is", and another alternative ("double equals is the strict one"). */
const COPULA_FILLERS = wordSet('contrasts.copulaFillers');

/** "double equals is the strict one", "memoisation is bottom up": one alternative said to be another, in one clause. */
function saysOneIsTheOther(
  tokens: Statement['tokens'],
  named: readonly Mention[],
  groups: ReadonlySet<number>,
  subjects: ReadonlySet<string>,
): boolean {
  for (const a of named) {
    if (!groups.has(a.group)) continue;
    const end = a.from + a.length;
    for (const b of named) {
      if (b.group !== a.group || b.side === a.side || b.from < end || tokens[b.from]!.clause !== tokens[a.from]!.clause) continue;
      const between = tokens.slice(end, b.from);
      if (
        between.filter((t) => COPULAS.has(t.word)).length !== 1 ||
        !between.every((t) => COPULAS.has(t.word) || COPULA_FILLERS.has(t.word))
      )
        continue;
      if (subjects.has(`${a.group}:${a.side}`) !== subjects.has(`${b.group}:${b.side}`)) return true;
    }
  }
  return false;
}

/** Words that speak of several alternatives at once. */
const PLURAL = wordSet('contrasts.plural');

/**
 * Whether a statement names just one of the alternatives the question compares, and nothing that
 * speaks of several: it cannot state a point that opens with "both" ("both limit how often a
 * handler runs").
 */
export function namesOnlyOne(statement: Statement, compared: ReadonlySet<number>): boolean {
  if (compared.size === 0 || statement.tokens.some((t) => PLURAL.has(t.word))) return false;
  const named = cached(STATEMENT_ALTERNATIVES, statement, tables().alternatives);
  return [...compared].some((g) => new Set(named.filter((m) => m.group === g).map((m) => m.side)).size === 1);
}

/** What a point says comes first and what comes after ("promise callbacks ... run before setTimeout"). */
export interface Order {
  earlier: ReadonlySet<string>;
  later: ReadonlySet<string>;
}

// Only "before" and "after": a spoken "then" is as often a filler or `.then()` as an order.
const ORDER_WORD = /\b(before|after)\b/i;
/** How far either side of "before" a statement's words are read as what comes first or later. */
const ORDER_REACH = 8;

export function orderIn(text: string): Order | undefined {
  const m = ORDER_WORD.exec(text);
  if (!m) return undefined;
  const a = new Set(contentStems(text.slice(0, m.index)));
  const b = new Set(contentStems(text.slice(m.index + m[0].length)));
  for (const x of [...a]) if (b.has(x)) [a, b].forEach((side) => side.delete(x));
  if (a.size === 0 || b.size === 0) return undefined;
  return m[1]!.toLowerCase() === 'after' ? { earlier: b, later: a } : { earlier: a, later: b };
}

/**
 * The statement puts the point's two things the other way round ("the event loop runs setTimeout
 * callbacks before promise callbacks" for "promise callbacks ... run before setTimeout"): what the
 * point says comes later is said first, what it says comes first is said after, and not the
 * other way as well.
 */
export function swapsOrder(statement: Statement, order: Order): boolean {
  const tokens = statement.tokens;
  const says = (from: number, to: number, stems: ReadonlySet<string>) =>
    tokens.slice(Math.max(0, from), Math.max(0, to)).some((t) => stems.has(t.stem) || t.alts.some((a) => stems.has(a)));
  return tokens.some((t, i) => {
    const w = t.word;
    if (w !== 'before' && w !== 'after') return false;
    const pre: [number, number] = [i - ORDER_REACH, i];
    const post: [number, number] = [i + 1, i + 1 + ORDER_REACH];
    const [first, second] = w === 'after' ? [post, pre] : [pre, post];
    const swapped = says(...first, order.later) && says(...second, order.earlier);
    const straight = says(...first, order.earlier) && says(...second, order.later);
    return swapped && !straight;
  });
}
