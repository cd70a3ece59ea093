import { describe, expect, it } from 'vitest';
import { matchKeyPoints, type KeyPointSpec } from './evidence-match';
import { porterStem } from './porter-stem';
import { splitStatements } from './statements';
import { conceptTags, keyPointCoverage, phrasesIn, stem, tokenize } from './text-match';

describe('keyPointCoverage', () => {
  const question = 'What is the difference between var, let and const in JavaScript?';
  const keyPoints = ['let and const are block scoped', 'prefer const, then let', 'const prevents reassignment but not mutation'];
  const answer = 'var is function scoped, and let and const are block scoped.';

  it('gives no key point for the question said back: its own words are no evidence', () => {
    // Without the question, naming const and let "covers" the advice to prefer const.
    expect(keyPointCoverage(answer, keyPoints).covered).toContain('prefer const, then let');
    const judged = keyPointCoverage(answer, keyPoints, question);
    expect(judged.covered).toEqual(['let and const are block scoped']);
    expect(judged.missed).toEqual(['prefer const, then let', 'const prevents reassignment but not mutation']);
  });

  it("still counts a point made only of the question's words when the answer says them", () => {
    expect(keyPointCoverage('let and const differ from var', ['let and const'], question).covered).toEqual(['let and const']);
  });

  it('counts the point when the answer adds what the question did not say', () => {
    expect(keyPointCoverage('I prefer const and use let only when I reassign.', keyPoints, question).covered).toContain(
      'prefer const, then let',
    );
  });
});

const spec = (text: string, accepted: string[] = [], contradictions: string[] = []): KeyPointSpec => ({ text, accepted, contradictions });
/** Status of one key point against an answer (question optional: its words are weak evidence). */
const status = (answer: string, point: KeyPointSpec, question?: string) =>
  matchKeyPoints(splitStatements(answer), [point], question)[0]!.status;

describe('stems: a word and its derived forms meet', () => {
  it('follows the Porter algorithm', () => {
    expect(['caresses', 'ponies', 'relational', 'conditional', 'hopping', 'generalizations', 'oscillators'].map(porterStem)).toEqual([
      'caress',
      'poni',
      'relat',
      'condit',
      'hop',
      'gener',
      'oscil',
    ]);
  });

  it('brings derived forms, British spellings and adverbs together', () => {
    expect(stem('isolation')).toBe(stem('isolated'));
    expect(stem('atomicity')).toBe(stem('atomic'));
    expect(stem('consistency')).toBe(stem('consistent'));
    expect(stem('behaviour')).toBe(stem('behavior'));
    expect(stem('normalisation')).toBe(stem('normalized'));
    expect(stem('analyse')).toBe(stem('analyze'));
    expect(stem('serialisable')).toBe(stem('serializable'));
    expect(stem('optimiser')).toBe(stem('optimizer'));
    expect(stem('lazily')).toBe(stem('lazy'));
    expect(stem('synchronously')).toBe(stem('synchronous'));
    expect(stem('apply')).not.toBe(stem('app'));
  });

  it('reads number words as digits, joins underscore names and treats "constructor" as a word', () => {
    expect(tokenize('Two pointers, a hundred to one')).toEqual(['2', 'pointers', 'a', '100', 'to', 'one']);
    expect(tokenize('fell by seventy percent in eighteen days')).toEqual(['fell', 'by', '70', 'percent', 'in', '18', 'days']);
    expect(tokenize('pg_stat_statements')).toEqual(['pgstatstatements']);
    expect(stem('constructor')).toBe('constructor');
  });

  it('reads typed apostrophes as apostrophes: curly ones, and a double quote or backtick inside a contraction', () => {
    expect(tokenize('they don’t share state')).toEqual(['they', "don't", 'share', 'state']);
    expect(tokenize('it isn"t connected to the battery"s terminal')).toEqual([
      'it',
      "isn't",
      'connected',
      'to',
      'the',
      "battery's",
      'terminal',
    ]);
    expect(tokenize('it`s a "quoted" word')).toEqual(["it's", 'a', 'quoted', 'word']);
    // A negation typed that way still negates: the point is not earned.
    const point: KeyPointSpec = { text: 'the terminals are connected', accepted: [], contradictions: [] };
    for (const answer of ['the terminals aren’t connected', 'the terminals aren"t connected'])
      expect(matchKeyPoints(splitStatements(answer), [point])[0]!.status).not.toBe('covered');
    expect(matchKeyPoints(splitStatements('the terminals are connected'), [point])[0]!.status).toBe('covered');
  });
});

describe('concepts: plain words and spoken phrases that say the same thing', () => {
  it('tags words with their concepts, keeping the synonym table out of it', () => {
    expect(conceptTags('hidden')).toContain('~private');
    expect(conceptTags('404')).toEqual(expect.arrayContaining(['~status', '~measure']));
    expect(conceptTags('bug')).toContain('~programmer');
    // "bug" is an error, but not every error is a programmer's bug.
    expect(conceptTags('error')).not.toContain('~programmer');
  });

  it('finds spoken phrases', () => {
    const found = phrasesIn(tokenize('a loop inside a loop is n squared')).map((p) => p.tag);
    expect(found).toEqual(expect.arrayContaining(['~nested', '~quadratic']));
  });

  it('credits a paraphrase in plain words, with the sentence that earned it', () => {
    const point = spec('private state or data privacy');
    const answer = 'We used it for a click counter. The count was kept hidden so nothing else could mess with it.';
    const [m] = matchKeyPoints(splitStatements(answer), [point]);
    expect(m).toMatchObject({ status: 'covered', evidence: 'The count was kept hidden so nothing else could mess with it.' });
  });

  it('lets one word fill only one requirement of a point', () => {
    const point = spec('propose an alternative or compromise');
    expect(status('I suggested we revisit the rewrite next quarter.', point)).toBe('covered');
    expect(status('I suggested it.', point)).toBe('missed');
  });

  it('takes a phrase of a key point as one requirement, and a phrase of the answer as one word', () => {
    const q = 'How do you decide where state should live in a React application?';
    expect(status('Anything from the server goes in React Query.', spec('server state in a data-fetching cache'), q)).toBe('covered');
    // "choose what they get" says "preferences" once: it cannot also fill "opt-out".
    expect(status('Users can choose what they get.', spec('templates and user preferences with opt-out'))).toBe('missed');
  });

  it('fills groups with the words themselves before their concepts, one group per word', () => {
    // "waiting" could say "locks"; the word "locks" is there, so "waiting" is left for "contention".
    expect(status("I'd look at whether the query is waiting on locks held by another transaction.", spec('locks and contention'))).toBe(
      'covered',
    );
    // "ask" is "asking", and its concept "clarifying" too, but one word fills one requirement.
    expect(status('I ask the quiet people for their view.', spec('asking clarifying questions or examples'))).toBe('missed');
  });

  it("does not ask a short point to repeat the question's verbs", () => {
    const q = 'How would you design a rate limiter for a public API that runs on many servers?';
    expect(status("I'd put the limiter in the API gateway.", spec('run in the gateway or middleware'), q)).toBe('covered');
  });

  it('matches a short "Also accepted" phrasing only as its words in order, fillers aside', () => {
    const point = spec('continuing to ask for feedback', ['ask how I am doing']);
    expect(status('I asked her to show me examples.', point)).toBe('missed');
    expect(status('Every month I ask, um, how I am doing.', point)).toBe('covered');
  });
});

describe('statements of run-on speech', () => {
  const runOn =
    'so um basically var is scoped to the whole function you are in it does not care about if blocks or for loops whereas let and const only live ' +
    'inside the curly braces where you wrote them and const you just cannot assign it again but you can still change what is inside the object';

  it("reads a phrasing's words as the answer's are read: contractions, number words, underscore names", () => {
    const point = spec('own the mistake', ["that's on me", 'zero incidents', 'pg_stat_statements'], ['two for loops']);
    expect(status("Honestly that's on me.", point)).toBe('covered');
    expect(status('We had zero incidents after that.', point)).toBe('covered');
    expect(status('I look at pg_stat_statements first.', point)).toBe('covered');
    expect(status('I would write two for loops.', point)).toBe('contradicted');
  });

  it('reads a listed contradiction turned down by "instead of" or "rather than" as no contradiction', () => {
    const point = spec('429 with Retry-After', [], ['return a 503']);
    expect(status("I'd send a 429 with Retry-After instead of returning a 503.", point)).toBe('covered');
    expect(status("I'd send a 429 with Retry-After rather than return a 503.", point)).toBe('covered');
    expect(status("When they go over the limit I'd return a 503.", point)).toBe('contradicted');
  });

  it('reads unpunctuated speech as overlapping runs of whole clauses', () => {
    const texts = splitStatements(runOn).map((s) => s.text);
    expect(texts.length).toBeGreaterThan(1);
    // Every statement starts where a clause starts, never mid-thought.
    for (const t of texts.slice(1)) expect(t).toMatch(/^(?:whereas|and const|but|so|um|basically)\b/);
    expect(texts.join(' ')).toContain('let and const only live inside the curly braces');
  });

  it('tells a sentence with few of the commonest small words from a list of terms', () => {
    const salad = (text: string) => splitStatements(text)[0]!.salad;
    expect(salad("Two transactions running at once shouldn't see each other's half-finished work.")).toBe(false);
    expect(salad('deadline deadline priorities scope stakeholders quality updates must-haves delivered on time')).toBe(true);
  });

  it('earns the points a run-on answer states', () => {
    const q = 'What is the difference between var, let and const in JavaScript?';
    expect(status(runOn, spec('var is function scoped'), q)).toBe('covered');
    expect(status(runOn, spec('let and const are block scoped'), q)).toBe('covered');
  });
});

describe('what still denies a point', () => {
  const visited = spec('visited set for cycles');

  it('keeps negation: a denied point is not earned', () => {
    expect(status('A closure does not keep anything hidden, there is no private state.', spec('private state or data privacy'))).toBe(
      'missed',
    );
    expect(status('You do not need a visited set, cycles are never a problem.', visited)).toBe('missed');
  });

  it('reads "so no hooks inside if statements" as a denial, not a purpose', () => {
    expect(
      status('Hooks are called in the same order, so no hooks inside if statements or loops.', spec('put conditions inside the hook')),
    ).toBe('missed');
  });

  it('reads "so you don\'t need" as a denial, not a purpose', () => {
    expect(
      status(
        "If a promise fails it just returns undefined, so you don't need try catch around await.",
        spec('try/catch around await for errors'),
      ),
    ).toBe('missed');
  });

  it('reads a purpose or a check as saying what is avoided, not as a denial', () => {
    expect(status("You keep track of the nodes you've been to so you don't loop forever on a cycle.", visited)).toBe('covered');
    expect(status("I'd check the app isn't doing one query per row in a loop.", spec('N+1 queries from the application'))).toBe('covered');
  });

  it('tells an admission of not knowing from a statement about what is not known', () => {
    const point = spec('crash and restart on unknown state with graceful shutdown');
    expect(status("If we don't know what state we're in, we let the process crash and the orchestrator restarts it.", point)).toBe(
      'covered',
    );
    expect(status("I don't know what happens to the process, maybe it crashes and restarts.", point)).toBe('missed');
  });

  it('gives nothing for a question, even in plain words', () => {
    expect(status('Is the count kept hidden so nothing else can touch it?', spec('private state or data privacy'))).toBe('missed');
  });
});

describe('wrong answers in the right words', () => {
  /** The status of one of a question's key points (all of them given: they tell which alternatives the question compares). */
  const among = (answer: string, points: readonly string[], point: string, question?: string) =>
    matchKeyPoints(
      splitStatements(answer),
      points.map((p) => spec(p)),
      question,
    ).find((m) => m.point === point)!.status;
  const equality = 'What is the difference between == and === and when, if ever, would you use the loose one?';
  const equalityPoints = ['strict equality compares type and value without coercion', 'loose equality performs type coercion'];
  const [strict, loose] = equalityPoints as [string, string];

  it('gives a property said of the other alternative the question compares to neither', () => {
    const swapped = 'double equals is the strict one and triple equals converts types, so I always use double equals to be safe';
    expect(among(swapped, equalityPoints, strict, equality)).toBe('missed');
    expect(among(swapped, equalityPoints, loose, equality)).toBe('missed');
    const right = 'triple equals compares the type and the value without converting anything, double equals converts the types first';
    expect(among(right, equalityPoints, strict, equality)).toBe('covered');
    expect(among(right, equalityPoints, loose, equality)).toBe('covered');
  });

  it('binds a property to the alternative its clause names, before or after it', () => {
    const q = 'Explain the difference between inner, left and full outer joins with an example.';
    const joins = ['inner join returns only matching rows', 'left join keeps all left rows with NULLs for missing matches'];
    expect(
      among('A left join only gives you the rows that match in both tables, and an inner join gives you everything.', joins, joins[0]!, q),
    ).toBe('missed');
    expect(among('Only the rows that match in both tables come back from an inner join.', joins, joins[0]!, q)).toBe('covered');
    const declarations = 'What is the difference between var, let and const in JavaScript?';
    const scopes = ['var is function scoped', 'let and const are block scoped'];
    expect(among('var is block scoped and let is function scoped.', scopes, scopes[0]!, declarations)).toBe('missed');
    expect(among('var is block scoped and let is function scoped.', scopes, scopes[1]!, declarations)).toBe('missed');
    expect(among('var is function scoped and let and const are block scoped.', scopes, scopes[1]!, declarations)).toBe('covered');
    expect(among('let and const are block scoped unlike var, which is function scoped.', scopes, scopes[0]!, declarations)).toBe('covered');
    expect(among('let and const are block scoped unlike var, which is function scoped.', scopes, scopes[1]!, declarations)).toBe('covered');
  });

  it('binds a short accepted phrasing to the alternative its clause names too', () => {
    const points = [spec(strict), spec(loose, ['does conversions'])];
    const status2 = (answer: string) => matchKeyPoints(splitStatements(answer), points, equality)[1]!.status;
    expect(status2('double equals does conversions before comparing')).toBe('covered');
    expect(status2('triple equals does conversions before comparing')).toBe('missed');
  });

  it('binds only alternatives the question or its key points compare', () => {
    // The array is what the two-sum question hands over, not an alternative to the hash map.
    const q = 'How would you find the two numbers in an unsorted array that add up to a target value?';
    const answer = 'I make a single pass over the array and keep a hash map of the values seen so far.';
    expect(among(answer, ['single pass with a hash map of seen values'], 'single pass with a hash map of seen values', q)).toBe('covered');
  });

  it('gives nothing for the opposite property, unless the opposite is denied', () => {
    const q = 'How do ES modules differ from CommonJS, and why does it matter for bundling?';
    const point = spec('CommonJS require is synchronous and evaluated at runtime');
    expect(status('require is asynchronous and evaluated at runtime.', point, q)).toBe('missed');
    expect(status("require isn't asynchronous, it is evaluated at runtime.", point, q)).toBe('covered');
    expect(status('require is synchronous and evaluated at runtime.', point, q)).toBe('covered');
  });

  it('gives nothing that tells alternatives apart to a statement that says they are the same', () => {
    const arrow = spec('arrow functions use lexical this');
    expect(status('Arrow functions work exactly the same way as normal functions, they use the lexical this.', arrow)).toBe('missed');
    expect(status('Arrow functions use the lexical this, unlike normal functions.', arrow)).toBe('covered');
    // "the same" said of something else is no mix-up.
    expect(
      among('triple equals checks that the type and the value are the same, with no conversion at all', equalityPoints, strict, equality),
    ).toBe('covered');
  });

  it('gives nothing about an alternative to a clause that says it is the other one', () => {
    const q = 'What is dynamic programming, and how do you recognise a problem that suits it?';
    const points = ['memoisation top-down', 'tabulation bottom-up'];
    expect(among('Memoisation is bottom up, you fill a table.', points, points[1]!, q)).toBe('missed');
    expect(among('Memoisation is top-down, tabulation is bottom-up.', points, points[0]!, q)).toBe('covered');
    expect(among('Memoisation is top-down, tabulation is bottom-up.', points, points[1]!, q)).toBe('covered');
  });

  it('gives a point about both alternatives only to a statement about both', () => {
    const q = 'What are debouncing and throttling, and when would you choose each?';
    const points = ['both limit how often a handler runs', 'throttle runs at most once per interval'];
    expect(among('Throttling limits how often the handler runs.', points, points[0]!, q)).toBe('missed');
    expect(among('Debouncing and throttling both limit how often the handler runs.', points, points[0]!, q)).toBe('covered');
    expect(among('They both limit how often a handler runs.', points, points[0]!, q)).toBe('covered');
  });

  it('takes no evidence from a statement that says a listed contradiction of any point', () => {
    const answer = 'Hooks can be called anywhere, inside loops or conditions.';
    const inside = spec('put conditions inside the hook');
    const topLevel = (contradictions: string[]) => spec('call hooks only at the top level, not in conditions or loops', [], contradictions);
    const statuses = (contradictions: string[]) =>
      matchKeyPoints(splitStatements(answer), [topLevel(contradictions), inside]).map((m) => m.status);
    expect(statuses([])).toEqual(['missed', 'covered']);
    expect(statuses(['hooks can be called anywhere'])).toEqual(['contradicted', 'missed']);
  });

  it('asks a word the point denies to be denied in the answer too', () => {
    const point = spec('own the mistake honestly without blaming others');
    expect(status('I was honest about the mistake and blamed the other team.', point)).toBe('missed');
    expect(status("I was honest about the mistake and didn't blame the other team.", point)).toBe('covered');
    expect(status('I was honest about the mistake instead of blaming the other team.', point)).toBe('covered');
    // "forgot to remove" denies the removal; it is no admission of not knowing.
    const listeners = spec('event listeners and subscriptions not removed');
    expect(status('A classic leak is when you forgot to remove an event listener.', listeners)).toBe('covered');
    expect(status('A classic leak is when you remove an event listener.', listeners)).toBe('missed');
    // "prevents ... but not mutation" denies the prevention: the mutation is said plainly.
    expect(
      status('const stops you reassigning it, but you can still mutate the object.', spec('const prevents reassignment but not mutation')),
    ).toBe('covered');
  });
});

describe('plain spoken English (round 6 rules)', () => {
  it('meets an irregular past with its verb', () => {
    expect(['kept', 'wrote', 'built', 'ran', 'threw'].map(stem)).toEqual([
      stem('keep'),
      stem('write'),
      stem('build'),
      stem('run'),
      stem('throw'),
    ]);
    expect(status('We kept the hot rows in memory.', spec('keep hot rows in memory'))).toBe('covered');
    // A past whose verb is a stop word stays what it is: "made" says nothing of "make".
    expect(stem('made')).toBe('made');
  });

  it('reads a phrasal verb with its object between', () => {
    const point = spec('event listeners and subscriptions not removed');
    expect(status('People add listeners and never take them off.', point)).toBe('covered');
    expect(status('People add listeners and never take the listener off.', point)).toBe('covered');
    // Only an object may sit between: "take off" is not "take the bus and get off".
    expect(status('People add listeners and never take the bus and get off.', point)).toBe('missed');
  });

  it('reads a status code said digit by digit as the number', () => {
    const point = spec('429 with Retry-After headers');
    expect(status('reply with four two nine and a header', point)).toBe('covered');
    expect(status('reply with four or nine and a header', point)).toBe('missed');
  });

  it('keeps clause breaks where they were said after a status code read digit by digit', () => {
    const [statement] = splitStatements('We return four two nine to the caller, and then the client waits.');
    expect(statement!.tokens.map((t) => `${t.word}:${t.clause}`)).toEqual([
      'we:0',
      'return:0',
      '429:0',
      'to:0',
      'the:0',
      'caller:0',
      'and:1',
      'then:1',
      'the:1',
      'client:1',
      'waits:1',
    ]);
  });

  it('reads "I don\'t know" after "if" as a condition, not an admission', () => {
    const point = spec('crash and restart on unknown state with graceful shutdown');
    expect(
      status(
        "If it's a bug and I don't know what state the process is in I'd let it crash, drain the requests in flight and let the orchestrator restart it.",
        point,
      ),
    ).toBe('covered');
    expect(status("I don't know what state the process is in, crash, drain the requests in flight, restart.", point)).toBe('missed');
  });

  it('reads "you don\'t want" as what is avoided, not a denial', () => {
    const point = spec('cache stampede and request coalescing');
    const q = 'How does caching fit into a system design?';
    expect(status("You don't want a thousand requests all hitting the database at once.", point, q)).toBe('covered');
    expect(status('There are never requests all hitting the database at once.', point, q)).toBe('missed');
  });

  it('gives each word to the group it fills best', () => {
    // "fell by" is a measure and a result, "percent" only a measure: both groups are filled.
    expect(status('After launch refund tickets fell by about seventy percent.', spec('measurable impact or result'))).toBe('covered');
    expect(status('After launch refund tickets fell by a lot.', spec('measurable impact or result'))).toBe('missed');
  });

  it('lets a number in a key point keep its concepts', () => {
    const point = spec('301 versus 302 redirects');
    expect(status('A permanent redirect gets cached, so use the temporary one.', point)).toBe('covered');
    expect(conceptTags('301')).toEqual(['~redirect301', '~measure', '~status']);
  });

  it('asks for the ideas of a point, not the words that relate them', () => {
    const point = spec('static structure enables tree shaking');
    expect(status('Imports are static, so the bundler can do tree shaking.', point)).toBe('covered');
    expect(status('Imports are static, so the bundler is simpler.', point)).toBe('missed');
    // "contained in" relates too: "are in the same keystore" says it.
    const contained = spec('the private key and the certificate must be contained in the same keystore file');
    expect(status('The key and the certificate are in the same keystore.', contained)).toBe('covered');
    expect(status('The key is in a keystore.', contained)).toBe('missed');
  });

  it('reads a point that denies one side of a two-sided property as saying the other side, by any of its words', () => {
    const point = spec('they are not in the same region');
    expect(status('They are in different regions.', point)).toBe('covered');
    expect(status('They sit in separate regions.', point)).toBe('covered');
    expect(status('They are in distinct regions.', point)).toBe('covered');
    expect(status('They are in the same region.', point)).not.toBe('covered');
  });

  it('reads "neither ... nor" as a negative point: said by a negation of its words, denied by their affirmation', () => {
    const point = spec('neither the client nor the server stores the session');
    expect(status('The client and the server do not store the session.', point)).toBe('covered');
    expect(status('The session is stored by neither the client nor the server.', point)).toBe('covered');
    expect(status('The client and the server store the session.', point)).not.toBe('covered');
  });

  it('reads "its own" as the other side of "the same"', () => {
    const point = spec('they are not in the same process');
    expect(status('Each of them runs in its own process.', point)).toBe('covered');
    expect(status('They share the same process.', spec('each worker has its own process'))).not.toBe('covered');
  });

  it('reads a check as a purpose only in the clause of its negation', () => {
    const q = 'What is the difference between == and === and when, if ever, would you use the loose one?';
    const point = spec('loose equality performs type coercion');
    expect(status("Double equals is just an older spelling of the same check, there's no conversion going on.", point, q)).toBe('missed');
    expect(status('Double equals converts the types before it compares.', point, q)).toBe('covered');
  });

  it('denies a point whose own word is said only under a negation, however many of its other words are there', () => {
    const point = spec('CPU-heavy or synchronous work blocks every request');
    expect(status("Every request gets its own thread so CPU heavy synchronous work doesn't block anything.", point)).toBe('missed');
    expect(status('A CPU heavy synchronous loop blocks every request.', point)).toBe('covered');
  });

  it("gives nothing for a statement that puts the point's order the other way round", () => {
    const point = spec('promise callbacks are microtasks and run before setTimeout');
    expect(status('The event loop runs setTimeout callbacks before promise callbacks because they are macrotasks.', point)).toBe('missed');
    expect(status('Promise callbacks are microtasks, so they run before any setTimeout callback.', point)).toBe('covered');
    expect(status('A setTimeout callback only runs after the promise callbacks, the microtasks.', point)).toBe('covered');
  });

  it('lets one statement earn two points only with words of its own for each', () => {
    const q = 'What causes memory leaks in a long-running JavaScript application, and how would you find one?';
    const specs = [spec('event listeners and subscriptions not removed'), spec('timers and intervals not cleared')];
    const statuses = (answer: string) => matchKeyPoints(splitStatements(answer), specs, q).map((m) => m.status);
    // "never removed" says "not cleared" too, but it is already the listeners' "not removed".
    expect(statuses("Mostly it's event listeners and subscriptions that get added and never removed.")).toEqual(['covered', 'missed']);
    expect(statuses('Event listeners that are never removed and intervals that are never cleared.')).toEqual(['covered', 'covered']);
  });

  it('reads a spoken self-correction or "not just" as no denial', () => {
    const point = spec('var is function scoped');
    expect(status('var has no wait function scope', point)).toBe('covered');
    expect(status('var has no function scope', point)).toBe('missed');
    expect(status('const is not just block scoped, it also prevents reassignment', spec('let and const are block scoped'))).toBe('covered');
  });
});
