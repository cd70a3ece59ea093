/**
 * `npm run bench` — every benchmark, then bench/results.md.
 *
 *   npm run bench                      # everything (about 20 minutes)
 *   npm run bench -- --only=http,load  # some parts: http, same-work, load, rater, rater-runtime, beetle, web, lighthouse, session, speech, exports, abuse, takeover
 *   npm run bench -- --quick           # short runs and small tables, to check the scripts
 *   npm run bench -- --report          # only rebuild results.md (e.g. after editing notes.md)
 *   npm run bench -- --db=postgres     # one database (pglite, postgres)
 *   npm run bench -- --only=http --sizes=100000 --seconds=3   # one table size, shorter runs
 *   npm run bench -- --only=same-work --baseline=main   # product, main's product and the same-work ceiling in one run
 *   npm run bench -- --only=same-work --calls=login,ratings --rounds=5   # some of its calls, more rounds
 *   npm run bench -- --only=rater-runtime --baseline=main --rater-off   # the rater in the server: before, after, and the word matcher
 *   npm run bench -- --only=speech --local-tts=.venv-piper/bin/python   # also with a real local TTS server (bench/local-speech/)
 *   npm run bench -- --only=same-work --baseline=HEAD --baseline-env=LOG_LEVEL:warn   # price one setting
 *
 * Each part's figures are kept in bench/.out/<part>.json (not committed). A run replaces only the
 * sections of the parts it ran in results.md and keeps every other byte (hand-written sections
 * too), so a part can be re-run alone, even on a fresh clone, without losing the others;
 * --report rebuilds the whole file from bench/.out and bench/notes.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseKind } from './lib/databases';
import { ROOT } from './lib/processes';
import { describeMachine } from './lib/machine';
import { writeResults } from './lib/report';
import { runAbuse } from './parts/abuse';
import { runExports } from './parts/exports';
import { runHttp } from './parts/http';
import { runLighthouse } from './parts/lighthouse';
import { runLoad } from './parts/load';
import { runBeetle } from './parts/beetle';
import { runRater } from './parts/rater';
import { runRaterRuntime } from './parts/rater-runtime';
import { runSameWork } from './parts/same-work';
import { runSession } from './parts/session';
import { runSpeech } from './parts/speech';
import { runTakeover } from './parts/takeover';
import { runWeb } from './parts/web';

export const PARTS = [
  'http',
  'same-work',
  'load',
  'rater',
  'rater-runtime',
  'beetle',
  'web',
  'lighthouse',
  'session',
  'speech',
  'exports',
  'abuse',
  'takeover',
] as const;
type Part = (typeof PARTS)[number];

function parseArgs(argv: string[]) {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  // --report: only rebuild results.md from bench/.out (e.g. after editing bench/notes.md).
  const only = argv.includes('--report') ? [] : (value('only')?.split(',') ?? [...PARTS]);
  const unknown = only.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0) throw new Error(`Unknown part(s): ${unknown.join(', ')}. Parts: ${PARTS.join(', ')}`);
  const databases = (value('db')?.split(',') ?? ['pglite', 'postgres']) as DatabaseKind[];
  const sizes = value('sizes')?.split(',').map(Number);
  const seconds = value('seconds') === undefined ? undefined : Number(value('seconds'));
  const rounds = value('rounds') === undefined ? undefined : Number(value('rounds'));
  const baseline = value('baseline') ?? null;
  const calls = value('calls')?.split(',');
  const baselineEnv =
    value('baseline-env') === undefined
      ? undefined
      : Object.fromEntries((value('baseline-env') ?? '').split(',').map((kv) => kv.split(':') as [string, string]));
  return {
    only: only as Part[],
    quick: argv.includes('--quick'),
    raterOff: argv.includes('--rater-off'),
    databases,
    sizes,
    seconds,
    rounds,
    baseline,
    baselineEnv,
    calls,
    localTts: value('local-tts') ?? null,
  };
}

const OUT = path.join(ROOT, 'bench/.out');

function save(part: Part | 'machine', data: unknown): void {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, `${part}.json`), JSON.stringify({ at: new Date().toISOString(), data }, null, 2));
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (line: string) => console.log(line);
  if (args.only.length > 0) save('machine', await describeMachine());
  for (const part of args.only) {
    const started = Date.now();
    log(`== ${part}`);
    if (part === 'http') {
      save(
        part,
        await runHttp({
          databases: args.databases,
          eventSizes: args.sizes ?? (args.quick ? [2_000, 10_000] : [10_000, 100_000]),
          seconds: args.seconds ?? (args.quick ? 2 : 10),
          connections: 50,
          log,
        }),
      );
    } else if (part === 'same-work') {
      save(
        part,
        await runSameWork({
          events: args.sizes?.[0] ?? (args.quick ? 2_000 : 100_000),
          rounds: args.rounds ?? (args.quick ? 1 : 3),
          seconds: args.seconds ?? (args.quick ? 2 : 5),
          connections: 50,
          baseline: args.baseline,
          calls: args.calls,
          baselineEnv: args.baselineEnv,
          log,
        }),
      );
    } else if (part === 'load') {
      const results = [];
      for (const database of args.databases) results.push(await runLoad({ database, clients: 200, seconds: args.quick ? 5 : 30, log }));
      save(part, results);
    } else if (part === 'rater') {
      save(part, await runRater(log, args.quick ? 7 : 31));
    } else if (part === 'rater-runtime') {
      // With --baseline=REF the product at REF is measured first (the "before"); RATER_MODEL=off is the word matcher on purpose.
      save(
        part,
        await runRaterRuntime({
          rounds: args.quick ? 2 : 5,
          baseline: args.baseline,
          variants: args.raterOff ? [{ RATER_MODEL: 'off' }] : [],
          log,
        }),
      );
    } else if (part === 'beetle') {
      save(part, runBeetle(log));
    } else if (part === 'web') {
      save(part, runWeb(log));
    } else if (part === 'lighthouse') {
      save(part, await runLighthouse(log));
    } else if (part === 'exports') {
      save(part, await runExports(args.databases, args.sizes ?? (args.quick ? [2_000, 4_000] : [10_000, 100_000, 200_000]), log));
    } else if (part === 'abuse') {
      save(part, await runAbuse(log));
    } else if (part === 'speech') {
      save(part, await runSpeech(log, args.quick ? 10 : 60, args.localTts));
    } else if (part === 'takeover') {
      save(part, await runTakeover(log, args.quick ? 1 : 3));
    } else {
      save(part, await runSession(log, args.quick ? 3 : 7));
    }
    log(`== ${part} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  // Only the sections of the parts that ran are replaced; --report rebuilds the whole file.
  writeResults(OUT, path.join(ROOT, 'bench/results.md'), args.only.length > 0 ? ['machine', ...args.only] : undefined);
  log('wrote bench/results.md');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
