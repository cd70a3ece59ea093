/** Renders bench/results.md from the parts' figures in bench/.out and the notes in bench/notes.md. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HttpPart } from '../parts/http';
import type { LighthouseResult } from '../parts/lighthouse';
import type { LoadResult } from '../parts/load';
import type { BeetleResult } from '../parts/beetle';
import type { RaterResult } from '../parts/rater';
import type { RaterRuntimeResult } from '../parts/rater-runtime';
import type { BeetleFigures } from '../../test-support/beetle';
import type { LabelledFigures } from '../rater/evaluate';
import type { SameWorkResult } from '../parts/same-work';
import type { SessionResult } from '../parts/session';
import type { ExportsResult } from '../parts/exports';
import type { AbuseResult } from '../parts/abuse';
import type { SpeechResult } from '../parts/speech';
import type { TakeoverResult } from '../parts/takeover';
import type { WebResult } from '../parts/web';
import type { PassResult } from './http-bench';
import type { Machine } from './machine';

interface Saved<T> {
  at: string;
  data: T;
}

function read<T>(dir: string, name: string): Saved<T> | null {
  const file = path.join(dir, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Saved<T>) : null;
}

const ok = (pass: boolean) => (pass ? 'PASS' : '**FAIL**');
const n0 = (n: number) => Math.round(n).toLocaleString('en-US');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Target per call: question sets ≥ 0.8 of the ceiling; others ≥ 0.3 with p99 < 50 ms (PostgreSQL). */
export function callTarget(name: string, database: string): { text: string; pass: (ratio: number, p99: number) => boolean } {
  if (name.startsWith('GET /api/question-sets')) return { text: 'ratio ≥ 0.8', pass: (r) => r >= 0.8 };
  if (database === 'postgres') return { text: 'ratio ≥ 0.3, p99 < 50 ms', pass: (r, p99) => r >= 0.3 && p99 < 50 };
  return { text: '(figures only)', pass: () => true };
}

function passTable(pass: PassResult): string[] {
  const lines = [
    `#### ${pass.database === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${n0(pass.events)} events`,
    '',
    '| call | bytes | req/s | ceiling req/s | ratio | p50 ms | p99 ms | errors | non-2xx | target | result |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const c of pass.calls) {
    const target = callTarget(c.name, pass.database);
    const clean = c.server.errors === 0 && c.server.non2xx === 0;
    lines.push(
      `| ${c.name} | ${n0(c.bytes)} | ${n0(c.server.rps)} | ${n0(c.ceiling.rps)} | ${c.ratio.toFixed(2)} | ${c.server.p50} | ${c.server.p99} | ${c.server.errors} | ${c.server.non2xx} | ${target.text} | ${target.text.startsWith('(') ? (clean ? 'no errors' : '**errors**') : ok(clean && target.pass(c.ratio, c.server.p99))} |`,
    );
  }
  lines.push('', `Server RSS: ${pass.rssAfterStartMb.toFixed(0)} MB after start, ${pass.rssAfterLoadMb.toFixed(0)} MB after the load.`, '');
  return lines;
}

function growthTable(passes: PassResult[]): string[] {
  const lines = [
    '| database | call | p99 at small table (ms) | p99 at large table (ms) | growth | result (≤ 2x) |',
    '|---|---|---:|---:|---:|---|',
  ];
  for (const database of ['pglite', 'postgres']) {
    const mine = passes.filter((p) => p.database === database).sort((a, b) => a.events - b.events);
    const small = mine[0];
    const large = mine[mine.length - 1];
    if (!small || !large || small === large) continue;
    for (const c of large.calls) {
      const before = small.calls.find((s) => s.name === c.name);
      if (!before) continue;
      // p99 is whole milliseconds; 1 ms of jitter on a 1 ms call is not growth.
      const growth = c.server.p99 / Math.max(1, before.server.p99);
      lines.push(
        `| ${database} (${n0(small.events)} → ${n0(large.events)}) | ${c.name} | ${before.server.p99} | ${c.server.p99} | ${growth.toFixed(2)}x | ${ok(growth <= 2)} |`,
      );
    }
  }
  return lines;
}

function labelledSection(title: string, f: LabelledFigures, note: string, heldOut: boolean): string[] {
  const lines = [
    `### ${title}`,
    '',
    `${f.answers} answers, each labelled with the key points it really states. ${note}`,
    '',
    `- Key-point precision **${f.precision.toFixed(3)}** (target ≥ 0.95: ${ok(f.pass.precision)}), recall ${f.recall.toFixed(3)}, recall on strong paraphrases **${f.paraphraseRecall.toFixed(3)}** (target ≥ 0.75: ${ok(f.pass.paraphraseRecall)})`,
    `- Ordering strong > partial > off-topic / wrong / salad (class means): ${ok(f.pass.ordering)}`,
    `- Highest keyword-salad score ${f.saladMax}, highest off-topic score ${f.offTopicMax} (target ≤ 20 every time: ${ok(f.pass.caps)})`,
    '',
    '| class | answers | min | median | max | mean |',
    '|---|---:|---:|---:|---:|---:|',
    ...f.classes
      .filter((c) => c.answers > 0)
      .map((c) => `| ${c.label} | ${c.answers} | ${c.min} | ${c.median} | ${c.max} | ${c.mean.toFixed(1)} |`),
    '',
  ];
  // A held-out set's per-answer results are not printed: reading them would make it a seen set.
  if (heldOut)
    lines.push('Per-answer results are not printed for a held-out set, so it stays unseen (bench/rater/misses.ts refuses it too).', '');
  else if (f.misses.length > 0) {
    lines.push(
      'Where the rater and the labels disagree:',
      '',
      '| answer | class | score | credited, not stated | stated, not credited |',
      '|---|---|---:|---|---|',
    );
    for (const m of f.misses)
      lines.push(`| ${m.where} | ${m.label} | ${m.score} | ${m.falseCredits.join('; ') || '–'} | ${m.notCredited.join('; ') || '–'} |`);
    lines.push('');
  }
  return lines;
}

/** Key-point figures per labelled set, tuning and held-out apart: only a set never tuned on shows how the matcher generalises. */
function raterEvaluations(evaluations: NonNullable<RaterResult['evaluations']>): string[] {
  const lines = [
    '### Rubric rater against the labelled answers, set by set',
    '',
    'Targets: key-point precision ≥ 0.95 on every set, salad and off-topic ≤ 20 every time, and recall ≥ 0.75 on paraphrases the matcher was not tuned on (the held-out set).',
    '',
    '| set | role | answers | precision | recall | paraphrase recall | salad max | off-topic max |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...evaluations.map(
      ({ title, role, figures: f }) =>
        `| ${title} | ${role} | ${f.answers} | ${f.precision.toFixed(3)} | ${f.recall.toFixed(3)} | ${f.paraphraseRecall.toFixed(3)} | ${f.saladMax} | ${f.offTopicMax} |`,
    ),
    '',
  ];
  for (const { title, note, role, figures } of evaluations)
    lines.push(...labelledSection(`Rubric rater: ${title}`, figures, note, role === 'held-out'));
  return lines;
}

/** Constant memory: doubling the table may not raise the peak RSS by more than a small bound. */
function beetleRow(name: string, f: BeetleFigures): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const m = f.medians;
  return `| ${name} | ${f.answers} | **${f.agreementCredited.toFixed(3)}** | ${f.agreementAnsweredWell.toFixed(3)} | ${f.majorityBaseline.toFixed(3)} | **${pct(f.correctDismissed)}** | **${pct(f.contradictoryCredited)}** | ${m.correct} / ${m.partially_correct_incomplete} / ${m.contradictory} / ${m.irrelevant} / ${m.non_domain} | ${f.scoreCorrelation.toFixed(3)} | ${f.scoreCorrelation3?.toFixed(3) ?? '–'} | ${f.nonsenseMax} / ${f.offTopicMax} |`;
}

function beetleSection(saved: Saved<BeetleResult>): string[] {
  const b = saved.data;
  const lines = ['## Built-in rater on human answers (Beetle)', ''];
  if (b.vectors)
    lines.push(
      `The rater's word vectors (server/rater/vectors/, 80,000 words) load once per process in **${b.vectors.loadMs.toFixed(0)} ms** and add **${b.vectors.rssMb.toFixed(1)} MB** of RSS (${b.vectors.heapMb.toFixed(1)} MB of heap and buffers); targets ≤ 1 s and ≤ 60 MB: ${ok(b.vectors.loadMs <= 1000 && b.vectors.rssMb <= 60)}.`,
      '',
    );
  if (!b.dir || !b.perQuestion || !b.wholeSet)
    return [...lines, `Ran ${saved.at}: no Beetle data on this machine (../shared/data/beetle/), so nothing was measured.`, ''];
  lines.push(
    `Ran ${saved.at}, rater \`${b.rater}\`. 3,941 answers real students typed to 47 questions about electric circuits (SemEval-2013 Task 7, Beetle; read from \`../shared/data/beetle/\`, never copied into the repository), labelled by annotators; "correct" against everything else. Each question is an operator's own set: its reference answers as the model answer and their sentences as key points, no "Also accepted" lines. Tuning half: the first 24 question ids in sorted order; held-out half: the other 23, read only as these aggregates. Targets on the held-out half, per question: agreement ≥ 0.80, correct answers dismissed ≤ 5 %, contradictory answers credited ≤ 10 %. Rating all answers once took ${(b.ratingMs ?? 0).toFixed(0)} ms.`,
    '',
    '| reading | answers | agreement: a key point credited | agreement: "answered well" | always the majority | correct called off topic / not answered / not a real answer | contradictory credited | score medians: correct / partial / contradictory / irrelevant / non-domain | r (score, correct) | r (score, 3-level: correct 1, partial 0.5, else 0) | highest score of "not a real answer" / "off topic" |',
    '|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|',
    beetleRow('each question its own set, tuning half', b.perQuestion.tune),
    beetleRow('each question its own set, **held-out half**', b.perQuestion.heldOut),
    beetleRow('all questions of the half as one set, tuning half', b.wholeSet.tune),
    beetleRow('all questions of the half as one set, held-out half', b.wholeSet.heldOut),
    '',
    'In the second reading each answer is rated as an interview asking one question of a set holding every question of its half; many Beetle questions have the same text ("Explain your reasoning."), so an answer is often paired with another question of the same text and its own is "Not answered": that reading reproduces the figures ADR 016 started from (0.614 agreement, 40 % of correct answers dismissed), and says more about repeated question texts than about the matcher.',
    '',
  );
  return lines;
}

function raterRuntimeSection(saved: Saved<RaterRuntimeResult>): string[] {
  const r = saved.data;
  const before = r.runs.find((run) => run.label.startsWith('before'));
  const lines = [
    PART_HEADINGS['rater-runtime'],
    '',
    `Ran ${saved.at}. The real server process (\`node --import tsx server/main.ts\`, as \`npm start\` runs it, PGlite, \`LOG_LEVEL=warn\`) over HTTP (bench/parts/rater-runtime.ts). "Listening on": spawn to that line, on restarts (median of 3). \`/healthz\`: one check at a time, from the start to the end of each of ${r.rounds} rounds in which four interviews are rated at once (three 60-minute transcripts and one of ten fresh 20,000-letter words). 60-minute rating: one at a time over HTTP, median. RSS from /proc: after start, and the peak while rating. Targets (issue 32): \`/healthz\` p99 ≤ 50 ms, 60-minute rating ≤ 500 ms median, memory at most 250 MB above the product before, "Listening on" at most 1 s later than before.`,
    '',
    '| server | settings | "Listening on" (restarts) | /healthz p50 / p99 / max under four ratings (checks) | 60-minute rating, median | RSS after start → peak | result |',
    '|---|---|---:|---:|---:|---:|---|',
  ];
  for (const run of r.runs) {
    const isBefore = run === before;
    const pass =
      run.healthz.p99Ms <= 50 &&
      !run.healthz.failed &&
      run.hourRatingMedianMs <= 500 &&
      (!before || isBefore || (run.rssPeakMb - before.rssPeakMb <= 250 && run.listeningMedianMs - before.listeningMedianMs <= 1000));
    lines.push(
      `| ${run.label} | ${
        Object.entries(run.env)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ') || 'defaults'
      } | ${run.listeningMedianMs.toFixed(0)} ms (${run.listeningMs.map((m) => m.toFixed(0)).join(', ')}) | ${run.healthz.p50Ms.toFixed(1)} / **${run.healthz.p99Ms.toFixed(1)}** / ${run.healthz.maxMs.toFixed(0)} ms (${run.healthz.samples}${run.healthz.failed ? `, ${run.healthz.failed} dropped` : ''}) | **${run.hourRatingMedianMs.toFixed(0)} ms** | ${run.rssAfterStartMb.toFixed(0)} → ${run.rssPeakMb.toFixed(0)} MB | ${isBefore ? '(before)' : ok(pass)} |`,
    );
  }
  lines.push('');
  return lines;
}

function takeoverSection(saved: Saved<TakeoverResult>): string[] {
  const t = saved.data;
  const seconds = (runs: number[]) => runs.map((ms) => (ms / 1000).toFixed(1)).join(', ');
  const max = (runs: number[]) => Math.max(...runs);
  // Figures saved before the measure existed have none.
  const unheard = t.unheard ?? { SIGTERM: [], SIGKILL: [] };
  const out = [
    '## Takeover',
    '',
    `Ran ${saved.at}. Two real server processes on one PostgreSQL database (bench/parts/takeover.ts), ${t.rounds} rounds each. OpenAI calls: a call opened through server A (the local stand-in for the OpenAI calls API), A stopped; the figures are the time from the signal to server B reopening the call's sideband, and the time in which nobody listened to the call (A's sideband closed, B's not yet open: lines said then are not in the transcript; A stopped with SIGTERM listens until B has claimed the call). The candidate's audio goes on throughout. Turn-taking: a candidate sends a typed answer every 100 ms through HAProxy (the README's recipe) while one server is stopped (\`SHUTDOWN_DRAIN_SECONDS=${t.drainSeconds}\`); a failed request is sent again after 250 ms, as the app's resume does; the figure is the longest time from sending an answer to having the reply.`,
    '',
    '| figure | SIGTERM | SIGKILL | target | result |',
    '|---|---:|---:|---|---|',
    `| OpenAI call taken over by the other server (runs) | **${(max(t.calls.SIGTERM) / 1000).toFixed(1)} s** max (${seconds(t.calls.SIGTERM)}) | **${(max(t.calls.SIGKILL) / 1000).toFixed(1)} s** max (${seconds(t.calls.SIGKILL)}) | SIGTERM ≤ 6 s (one look); SIGKILL ≤ 21 s (lease 15 s + one look) | ${ok(max(t.calls.SIGTERM) <= 6_000 && max(t.calls.SIGKILL) <= 21_000)} |`,
    `| OpenAI call: nobody listening (runs) | **${(max(unheard.SIGTERM) / 1000).toFixed(1)} s** max (${seconds(unheard.SIGTERM)}) | **${(max(unheard.SIGKILL) / 1000).toFixed(1)} s** max (${seconds(unheard.SIGKILL)}) | SIGTERM 0 s; SIGKILL ≤ 21 s | ${ok(max(unheard.SIGTERM) === 0 && max(unheard.SIGKILL) <= 21_000)} |`,
    `| turn-taking: longest pause a candidate saw (per round) | **${max(t.turns.SIGTERM.map((r) => r.longestPauseMs)).toFixed(0)} ms** (${t.turns.SIGTERM.map((r) => r.longestPauseMs.toFixed(0)).join(', ')}) | **${max(t.turns.SIGKILL.map((r) => r.longestPauseMs)).toFixed(0)} ms** (${t.turns.SIGKILL.map((r) => r.longestPauseMs.toFixed(0)).join(', ')}) | ≤ 2 s | ${ok(max([...t.turns.SIGTERM, ...t.turns.SIGKILL].map((r) => r.longestPauseMs)) <= 2_000)} |`,
    `| turn-taking: requests that failed and were sent again (answers sent) | ${t.turns.SIGTERM.map((r) => `${r.failedRequests} (${r.answers})`).join(', ')} | ${t.turns.SIGKILL.map((r) => `${r.failedRequests} (${r.answers})`).join(', ')} | (figures only) | — |`,
    '',
  ];
  return out;
}

function exportsSection(saved: Saved<ExportsResult>): string[] {
  const { runs, maxPeakRiseMb } = saved.data;
  const lines = [
    '## Streamed CSV export',
    '',
    `Ran ${saved.at}. GET /api/admin/exports/ratings.csv from the real server process, every seeded event a rated interview with a ~1.5 KB transcript; the server's RSS sampled every 25 ms during the download. Target: every row arrives, and doubling the table (the file) raises the peak RSS by at most ${maxPeakRiseMb} MB (an export built in memory would add at least the file).`,
    '',
    '| database | events | rows | MB sent | seconds | RSS before | RSS peak | peak rise from the size before | result |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const database of ['pglite', 'postgres']) {
    const mine = runs.filter((r) => r.database === database).sort((a, b) => a.events - b.events);
    mine.forEach((r, i) => {
      const previous = mine[i - 1];
      const rise = previous ? r.rssPeakMb - previous.rssPeakMb : null;
      const doubled = previous !== undefined && r.events === previous.events * 2;
      const pass = r.rows === r.events && (!doubled || (rise ?? 0) <= maxPeakRiseMb);
      lines.push(
        `| ${r.database} | ${n0(r.events)} | ${n0(r.rows)} | ${(r.bytes / 1e6).toFixed(0)} | ${r.seconds.toFixed(1)} | ${r.rssBeforeMb.toFixed(0)} MB | ${r.rssPeakMb.toFixed(0)} MB | ${rise === null ? '—' : `${rise.toFixed(0)} MB${doubled ? ' (table doubled)' : ''}`} | ${ok(pass)} |`,
      );
    });
  }
  lines.push('');
  return lines;
}

function abuseSection(saved: Saved<AbuseResult>): string[] {
  const r = saved.data;
  const lines = [
    PART_HEADINGS.abuse,
    '',
    `Ran ${saved.at}. One free account at default settings (${Object.entries(r.settings)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}) against the real server (buildApp, shipped question sets, PGlite) over HTTP from one address, with local stand-ins for the language model, speech-to-text, text-to-speech and OpenAI Realtime. Each figure has its own attack on a fresh server by a fresh account for at most ${r.attackSeconds} s (one rate-limit window), counted where the calls land; each bound is derived from the settings the server loaded (README, Security and limits). Target: every figure at or under its bound.`,
    '',
    '| figure | measured | bound | result | bound from | attack |',
    '|---|---:|---:|---|---|---|',
  ];
  for (const f of r.figures)
    lines.push(
      `| ${f.figure} | **${n0(f.measured)}** ${f.unit} | ${n0(f.bound)} ${f.unit} | ${ok(f.measured <= f.bound)} | ${f.boundFrom} | ${f.attack} |`,
    );
  lines.push('', ...r.notes.map((note) => `- ${note}`), '');
  return lines;
}

/** Each part's `## ` headings in results.md, so a part that did not run keeps its last section. */
const PART_HEADINGS = {
  machine: '## Machine',
  http: '## HTTP calls under load',
  'same-work': '## Same-work ceilings',
  load: '## Load:',
  rater: '## Rubric rater',
  'rater-runtime': '## The rater in the server',
  beetle: '## Built-in rater on human answers',
  web: '## Web bundle',
  lighthouse: '## Lighthouse',
  session: '## Session start',
  speech: '## Speech-pipeline turns',
  exports: '## Streamed CSV export',
  abuse: '## What one free account can cost in a minute',
  takeover: '## Takeover',
} as const;

/** The sections of the results.md already on disk, split at each `## ` heading. */
function previousSections(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split(/^(?=## )/m)
    .slice(1);
}

/**
 * A part's section as the last full run wrote it: `bench/.out` is not committed, so after
 * `--only=rater` on a fresh clone the other parts' figures come from results.md itself.
 */
const pct = (values: number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * p) - 1)] ?? NaN;

/** Issue 37's figures: Chromium, spoken answers with inner pauses (bench/parts/speech-pauses.ts). */
function pausesRows(p: SpeechResult['pauses'] | undefined): string[] {
  if (!p) return [];
  const voice = p.lastWordToVoiceMs;
  const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  const median = pct(voice, 0.5);
  const p95 = pct(voice, 0.95);
  const bargeMax = Math.max(...p.bargeInMs);
  return [
    `| Chromium, ${p.answers} spoken answers with 0.6–1.2 s pauses inside (the fake STT writes down what was said, ${ms([pct(p.sttMs, 0.5)])} ms median a call${p.raw ? `, ${p.raw.uploads.length} pieces in all` : ''}; ${p.llmWordGapMs ? `the fake language model writes a word every ${p.llmWordGapMs} ms` : 'the fake language model answers at once'}): the candidate's last word → interviewer audio playing | **${median.toFixed(0)} ms** | p95 ${p95.toFixed(0)} ms; runs ${ms(voice)} ms | median ≤ 1000 ms, p95 ≤ 1500 ms | ${ok(median <= 1000 && p95 <= 1500)} |`,
    `| the same answers: cut off mid-thought (a turn taken between the answer's first and last word) | **${p.cutOff} of ${p.answers}** | | ≤ 5 % | ${ok(p.cutOff <= p.answers * 0.05)} |`,
    `| the same answers, each begun over the interviewer's line: first word → its audio paused for good (not played again during the answer) | **${pct(p.bargeInMs, 0.5).toFixed(0)} ms** | max ${bargeMax.toFixed(0)} ms; runs ${ms(p.bargeInMs)} ms | ≤ 300 ms | ${ok(bargeMax <= 300)} |`,
  ];
}

/** Issue 37 item 5: the paused answers with a real local TTS server (bench/parts/speech-local.ts), when run. */
function localTtsRows(l: SpeechResult['localTts']): string[] {
  if (!l || l.lastWordToVoiceMs.length === 0) return [];
  const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  const median = pct(l.lastWordToVoiceMs, 0.5);
  const p95 = pct(l.lastWordToVoiceMs, 0.95);
  return [
    `| the same answers with a real local text-to-speech server (${l.tts}; the fake STT as above; not run in CI): last word → interviewer audio playing | **${median.toFixed(0)} ms** | p95 ${p95.toFixed(0)} ms; runs ${ms(l.lastWordToVoiceMs)} ms; cut off ${l.cutOff} of ${l.answers}; barge-in max ${Math.max(...l.bargeInMs).toFixed(0)} ms | median ≤ 1000 ms, p95 ≤ 1500 ms | ${ok(median <= 1000 && p95 <= 1500)} |`,
  ];
}

/** Issue 37 item 2 in browser speech (bench/parts/browser-speech-turns.ts, docs/decisions/034). */
function browserSpeechRows(b: SpeechResult['browserSpeech']): string[] {
  if (!b || b.firstVoiceMs.length === 0) return [];
  const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  const voice = pct(b.firstVoiceMs, 0.5);
  const whole = pct(b.wholeReplyMs, 0.5);
  return [
    `| browser speech in Chromium, ${b.answers} typed answers, the fake language model writing a two-sentence line a word every ${b.llmWordGapMs} ms: answer sent → the browser asked to speak the reply (its first sentence) | **${voice.toFixed(0)} ms** | runs ${ms(b.firstVoiceMs)} ms; answer sent → the whole reply read (when the code before ADR 034 began to speak): median ${whole.toFixed(0)} ms | below the whole reply's | ${ok(voice < whole)} |`,
  ];
}

function kept(previous: string[], part: keyof typeof PART_HEADINGS): string[] {
  const section = previous.find((s) => s.startsWith(PART_HEADINGS[part]));
  return section ? [section.trimEnd(), ''] : [];
}

/** The text before the first `## ` heading, then each section from its heading to the next. */
function sectionsOf(text: string): { preamble: string; sections: string[] } {
  const [preamble = '', ...sections] = text.split(/^(?=## )/m);
  return { preamble, sections };
}

/**
 * `previous` with the sections of `parts` (keys of PART_HEADINGS) replaced by those in `rendered`:
 * every other byte stays, hand-written sections included (a re-run of one part once dropped
 * "Built-in rater with the sentence model (issue 32)", which no part writes). A part whose
 * section is not in `previous` yet is added at the end.
 */
export function mergeResults(previous: string, rendered: string, parts: readonly string[]): string {
  const old = sectionsOf(previous);
  const fresh = sectionsOf(rendered).sections;
  const sections = [...old.sections];
  for (const part of parts) {
    const heading = (PART_HEADINGS as Record<string, string>)[part];
    if (heading === undefined) continue;
    const replacement = fresh.find((section) => section.startsWith(heading));
    if (replacement === undefined) continue;
    const at = sections.findIndex((section) => section.startsWith(heading));
    if (at === -1) {
      const last = sections.length - 1;
      if (last >= 0) sections[last] = `${(sections[last] ?? '').trimEnd()}\n\n`;
      sections.push(replacement);
    } else {
      // The section's own trailing blank lines stay as they were (the next heading's spacing).
      const trailing = /\s*$/.exec(sections[at] ?? '')?.[0] ?? '';
      sections[at] = replacement.trimEnd() + trailing;
    }
  }
  return old.preamble + sections.join('');
}

/**
 * Writes results.md. With `ranParts` (the parts this run measured, and 'machine'), only their
 * sections are replaced in the file on disk and everything else is kept byte for byte; without
 * (`--report`, or no file yet), the whole file is rebuilt from bench/.out and bench/notes.md.
 */
export function writeResults(outDir: string, file: string, ranParts?: readonly string[]): void {
  const rendered = renderResults(outDir, file);
  writeFileSync(file, ranParts !== undefined && existsSync(file) ? mergeResults(readFileSync(file, 'utf8'), rendered, ranParts) : rendered);
}

function renderResults(outDir: string, file: string): string {
  const previous = previousSections(file);
  const machine = read<Machine>(outDir, 'machine');
  const http = read<HttpPart>(outDir, 'http');
  const load = read<LoadResult[]>(outDir, 'load');
  const sameWork = read<SameWorkResult>(outDir, 'same-work');
  const rater = read<RaterResult>(outDir, 'rater');
  const beetle = read<BeetleResult>(outDir, 'beetle');
  const raterRuntime = read<RaterRuntimeResult>(outDir, 'rater-runtime');
  const web = read<WebResult>(outDir, 'web');
  const lighthouse = read<LighthouseResult>(outDir, 'lighthouse');
  const session = read<SessionResult[]>(outDir, 'session');
  const speech = read<SpeechResult>(outDir, 'speech');
  const exports = read<ExportsResult>(outDir, 'exports');
  const abuse = read<AbuseResult>(outDir, 'abuse');
  const takeover = read<TakeoverResult>(outDir, 'takeover');
  const out: string[] = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (see bench/README.md). Each section says when its part last ran.',
    '',
  ];

  if (machine) {
    const m = machine.data;
    out.push(
      '## Machine',
      '',
      `- Run: ${machine.at}`,
      `- ${m.cpus} CPU cores (${m.cpuModel}), ${m.memoryGb} GB memory, ${m.kernel}; load average at the start ${m.loadAverage.join(' / ')} (the machine is shared with other engineers' test runs, so absolute figures are noisy: compare the ratios to the in-run ceiling)`,
      `- Node ${m.node}, PostgreSQL ${m.postgres}, PGlite ${m.pglite}, ${m.chromium}, Lighthouse ${m.lighthouse}, autocannon ${m.autocannon}`,
      '',
    );
  } else out.push(...kept(previous, 'machine'));

  if (http) {
    const h = http.data;
    out.push(
      '## HTTP calls under load',
      '',
      `Ran ${http.at}. autocannon, ${h.connections} connections, ${h.seconds} s per call (after a 1 s warm-up), against the real server process (\`tsx server/main.ts\`, request logging on as shipped). The ceiling is a bare Fastify process answering the same status, content type and bytes from memory, measured right after each call in the same run.`,
      '',
    );
    out.push('Seeded databases (bulk SQL through the real schema and migrations):', '');
    for (const s of h.seed)
      out.push(
        `- ${s.database}: ${Object.entries(s.counts)
          .map(([k, v]) => `${k} ${n0(v)}`)
          .join(', ')}`,
      );
    out.push('');
    for (const pass of h.passes) out.push(...passTable(pass));
    out.push('### p99 growth from the small to the large events table', '', ...growthTable(h.passes), '');
  } else out.push(...kept(previous, 'http'));

  if (sameWork) {
    const w = sameWork.data;
    const env = w.baselineEnv
      ? ` with ${Object.entries(w.baselineEnv)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}`
      : '';
    out.push(
      '## Same-work ceilings (PostgreSQL)',
      '',
      `Ran ${sameWork.at}. The product (request logging as shipped) against \`bench/same-work-server.ts\`, a bare Fastify + \`pg\` server running the product's own SQL for the same call and answering the same JSON (no validation, ORM, plugins or logging)` +
        (w.baseline ? `, and the product as it was at \`${w.baseline}\`${env} (the "before")` : '') +
        `, all on one seeded database (${n0(w.events)} events). ${w.rounds} rounds of ${w.seconds} s per server and call, the servers' order reversed every round, 50 connections; req/s is the mean of the rounds, p50/p99 the median round's. Target: product ≥ 0.85 of the ceiling.`,
      '',
      `| call | product req/s | ${w.baseline ? 'before req/s | before ratio | ' : ''}ceiling req/s | ratio | product p50 / p99 ms | ceiling p50 / p99 ms | same answer | errors | result |`,
      `|---|---:|${w.baseline ? '---:|---:|' : ''}---:|---:|---:|---:|---|---:|---|`,
    );
    for (const c of w.calls) {
      const errors = c.product.errors + c.product.non2xx;
      out.push(
        `| ${c.name} | ${n0(c.product.rps)} | ${c.baseline ? `${n0(c.baseline.rps)} | ${(c.baselineRatio ?? 0).toFixed(2)} | ` : ''}${n0(c.ceiling.rps)} | **${c.ratio.toFixed(2)}** | ${c.product.p50} / ${c.product.p99} | ${c.ceiling.p50} / ${c.ceiling.p99} | ${c.sameAnswer ? 'yes' : '**no**'} | ${errors} | ${ok(c.sameAnswer && errors === 0 && c.ratio >= 0.85)} |`,
      );
    }
    const load = w.loadAverage
      ? ` Load average (1 minute) ${w.loadAverage[0].toFixed(1)} at the start, ${w.loadAverage[1].toFixed(1)} at the end, on ${machine?.data.cpus ?? '?'} cores.`
      : '';
    out.push('', `Product RSS after these loads: ${w.productRssMb.toFixed(0)} MB.${load}`, '');
  } else out.push(...kept(previous, 'same-work'));

  if (load) {
    out.push(
      '## Load: mixed traffic, no lost writes',
      '',
      `Ran ${load.at}.`,
      '',
      '| database | clients | seconds | requests | by kind | statuses | acknowledged feedback / ratings | missing | 5xx | network errors | RSS after start → after the load | result |',
      '|---|---:|---:|---:|---|---|---|---|---:|---:|---:|---|',
    );
    for (const l of load.data) {
      out.push(
        `| ${l.database} | ${l.clients} | ${l.seconds} | ${n0(l.requests)} | ${Object.entries(l.byKind)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')} | ${Object.entries(l.statuses)
          .map(([k, v]) => `${k}: ${v}`)
          .join(
            ', ',
          )} | ${l.acknowledgedFeedback} / ${l.acknowledgedRatings} | ${l.missingFeedback} / ${l.missingRatings} | ${l.serverErrors} | ${l.networkErrors} | ${l.rssAfterStartMb === undefined ? '' : `${l.rssAfterStartMb.toFixed(0)} → `}${l.rssAfterMb.toFixed(0)} MB | ${ok(l.pass)} |`,
      );
    }
    out.push('');
  } else out.push(...kept(previous, 'load'));

  if (rater) {
    const r = rater.data;
    out.push(
      '## Rubric rater, 60-minute interview',
      '',
      `Ran ${rater.at}. ${n0(r.words)} words in ${r.entries} turns (${n0(r.characters)} characters), ${r.runs} runs after a warm-up: median **${r.medianMs.toFixed(1)} ms**, p90 ${r.p90Ms.toFixed(1)} ms${r.cpuMedianMs === undefined ? '' : ` (CPU time of a run: median ${r.cpuMedianMs.toFixed(1)} ms)`}. Target < 50 ms: ${ok(r.pass)}.`,
      '',
    );
    if (r.evaluations) out.push(...raterEvaluations(r.evaluations));
  } else out.push(...kept(previous, 'rater'));

  out.push(...(raterRuntime ? raterRuntimeSection(raterRuntime) : kept(previous, 'rater-runtime')));
  out.push(...(beetle ? beetleSection(beetle) : kept(previous, 'beetle')));

  if (web) {
    const w = web.data;
    out.push(
      '## Web bundle',
      '',
      `Ran ${web.at}. What index.html makes the browser load for the first screen (gzip -9):`,
      '',
      '| file | bytes | gzipped |',
      '|---|---:|---:|',
    );
    for (const a of w.firstScreen) out.push(`| ${a.file} | ${n0(a.bytes)} | ${kb(a.gzip)} |`);
    out.push(
      `| **total** | | **${kb(w.firstScreenGzip)}** |`,
      '',
      `Target ≤ 100 KB: ${ok(w.pass)}.`,
      '',
      ...(w.split
        ? [
            `Framework floor (react, react-dom, scheduler, react-router) ${kb(w.split.frameworkGzip)}; our own share (app JS + CSS) **${kb(w.split.ownGzip)}**${w.split.ownJsGzip === undefined ? '' : ` (JS ${kb(w.split.ownJsGzip)}, CSS ${kb(w.split.ownCssGzip ?? 0)})`} (target ≤ 10 KB: ${ok(w.split.ownGzip <= 10 * 1024)}). The framework is a chunk of its own (web/vite.config.ts); a file mixing both would be divided by its minified bytes per package; the bundler's runtime counts as ours. docs/first-screen.md says what loads when.`,
            '',
          ]
        : []),
      'Lazy chunks (loaded on demand):',
      '',
      '| chunk | bytes | gzipped |',
      '|---|---:|---:|',
    );
    for (const a of w.lazy) out.push(`| ${a.file} | ${n0(a.bytes)} | ${kb(a.gzip)} |`);
    out.push(
      '',
      'What the entry chunk is made of (minified bytes, from a sourcemapped build; sources of 2% or more):',
      '',
      '| source | minified | share |',
      '|---|---:|---:|',
    );
    for (const c of w.entryComposition) out.push(`| ${c.source} | ${kb(c.bytes)} | ${(c.share * 100).toFixed(0)}% |`);
    out.push('');
  } else out.push(...kept(previous, 'web'));

  if (lighthouse) {
    const l = lighthouse.data;
    out.push(
      '## Lighthouse (mobile)',
      '',
      `Ran ${lighthouse.at}. Lighthouse ${machine?.data.lighthouse ?? ''} default mobile emulation with simulated throttling, Debian Chromium headless, first visit to \`/\` of the real server.`,
      '',
      `- Performance **${l.performance}** (target ≥ 95): ${ok(l.performance >= 95)}`,
      `- Accessibility **${l.accessibility}** (target 100): ${ok(l.accessibility === 100)}`,
      `- ${Object.entries(l.metrics)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
      ...(l.failedAudits.length > 0 ? [`- Audits below 0.9: ${l.failedAudits.join('; ')}`] : []),
      ...(l.problem ? [`- Problem: ${l.problem}`] : []),
      ...(l.history
        ? [
            `- History (\`/history\` of a candidate with ${l.history.interviews} rated interviews, logged in): cumulative layout shift **${l.history.cls.toFixed(3)}** (target ≤ 0.02): ${ok(l.history.pass)}`,
          ]
        : []),
      '',
    );
  } else out.push(...kept(previous, 'lighthouse'));

  if (session) {
    out.push(
      '## Session start',
      '',
      `Ran ${session.at}. From the click on \`start session\` to the status indicator reading \`Connected\` (page clock), Debian Chromium with a fake microphone, one unmeasured warm-up start first.`,
      '',
      '| mode | median | runs |',
      '|---|---:|---|',
    );
    for (const s of session.data)
      out.push(`| ${s.mode} | **${s.medianMs.toFixed(0)} ms** | ${s.runs.map((t) => t.toFixed(0)).join(', ')} ms |`);
    out.push('');
  } else out.push(...kept(previous, 'session'));

  if (speech) {
    const s = speech.data;
    out.push(
      '## Speech-pipeline turns',
      '',
      `Ran ${speech.at}. The real server in \`VOICE_MODE=pipeline\` with the scripted interviewer (the spoken answers in Chromium: the fake language model; the browser-speech row: bench/parts/browser-speech-turns.ts; the local text-to-speech row, only with \`--local-tts\`: bench/parts/speech-local.ts); the STT and TTS servers are the fake OpenAI-compatible audio server answering after fixed delays (transcript after ${s.sttDelayMs} ms, first audio byte after ${s.ttsDelayMs} ms).`,
      '',
      '| figure | median | other | target | result |',
      '|---|---:|---|---|---|',
      `| time our server adds to a turn (answer WAV sent → first byte of the reply's audio, minus the time inside the STT and TTS calls as the fake timed them; ${s.serverAdded.runs} turns over HTTP) | **${s.serverAdded.medianMs.toFixed(1)} ms** | p90 ${s.serverAdded.p90Ms.toFixed(1)} ms; the server process's CPU time ${s.serverAdded.cpuMsPerTurn?.toFixed(1) ?? '?'} ms per turn | ≤ 50 ms | ${ok(s.serverAdded.medianMs <= 50)} |`,
      ...pausesRows(s.pauses),
      ...browserSpeechRows(s.browserSpeech),
      ...localTtsRows(s.localTts),
      '',
    );
  } else out.push(...kept(previous, 'speech'));

  out.push(...(exports ? exportsSection(exports) : kept(previous, 'exports')));
  out.push(...(abuse ? abuseSection(abuse) : kept(previous, 'abuse')));
  out.push(...(takeover ? takeoverSection(takeover) : kept(previous, 'takeover')));

  const notes = path.join(path.dirname(file), 'notes.md');
  if (existsSync(notes)) out.push(readFileSync(notes, 'utf8').trim(), '');
  return out.join('\n');
}
