/**
 * The rubric rater: its key-point evidence measured against the labelled answers of bench/rater/
 * (see bench/rater/README.md), and its speed on a 60-minute interview: about 150 spoken words a
 * minute (9,000 words), built from the shipped strong-answer fixture repeated over the hour.
 */
import path from 'node:path';
import { evaluateLabelled, type LabelledFigures } from '../rater/evaluate';
import { LABEL_DIR, LABELLED_SETS, readLabelledSet, type LabelledSetInfo } from '../rater/labelled-set';
import { readCatalogue } from '../../server/catalogue/read-catalogue';
import { CATALOGUE_DIR } from '../../server/app';
import { loadTranscriptFixture } from '../../test-support/transcripts/load-transcripts';
import { createRubricRater } from '../../server/rater';
import type { TranscriptEntry } from '../../contract';

export interface RaterResult {
  words: number;
  entries: number;
  characters: number;
  runs: number;
  medianMs: number;
  p90Ms: number;
  /** CPU time (user + system) of the median run: what the rater costs, whatever else the shared machine runs. */
  cpuMedianMs?: number;
  pass: boolean;
  /** Each labelled set measured on its own (see bench/rater/labelled-set.ts, LABELLED_SETS). */
  evaluations?: Array<LabelledSetInfo & { figures: LabelledFigures }>;
}

const MINUTES = 60;
const WORDS = MINUTES * 150;

export function hourLongTranscript(): TranscriptEntry[] {
  const base = loadTranscriptFixture('01-javascript-fundamentals').strong.filter((e) => e.transcript.trim() !== '');
  const out: TranscriptEntry[] = [];
  let words = 0;
  for (let i = 0; words < WORDS; i += 1) {
    const entry = base[i % base.length];
    if (!entry) throw new Error('empty fixture');
    out.push({ role: entry.role, transcript: entry.transcript });
    words += entry.transcript.split(/\s+/).length;
  }
  // Spread the turns evenly over the hour, so delivery figures see a real pace.
  out.forEach((e, i) => (e.at = Math.round(((i + 1) / out.length) * MINUTES * 60_000)));
  return out;
}

export async function runRater(log: (line: string) => void, runs = 31): Promise<RaterResult> {
  const sets = await readCatalogue(CATALOGUE_DIR);
  const set = sets.find((s) => s.index === 1);
  if (!set) throw new Error('no set with index 1');
  const transcripts = hourLongTranscript();
  const rater = createRubricRater();
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < runs + 3; i += 1) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await rater.rate({ set: { id: 1, ...set }, transcripts, durationSeconds: MINUTES * 60 });
    if (!result.markdown) throw new Error('the rater returned no markdown');
    const used = process.cpuUsage(cpu);
    if (i >= 3) {
      // the first runs warm the JIT
      times.push(performance.now() - started);
      cpuTimes.push((used.user + used.system) / 1000);
    }
  }
  cpuTimes.sort((a, b) => a - b);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  const result: RaterResult = {
    words: transcripts.reduce((n, e) => n + e.transcript.split(/\s+/).length, 0),
    entries: transcripts.length,
    characters: transcripts.reduce((n, e) => n + e.transcript.length, 0),
    runs,
    medianMs: at(0.5),
    p90Ms: at(0.9),
    cpuMedianMs: cpuTimes[Math.floor(cpuTimes.length / 2)] ?? NaN,
    pass: at(0.5) < 50,
  };
  result.evaluations = LABELLED_SETS.map((info) => ({
    ...info,
    figures: evaluateLabelled(CATALOGUE_DIR, readLabelledSet(path.join(LABEL_DIR, info.dir))),
  }));
  for (const { title, role, figures: f } of result.evaluations) {
    log(
      `  ${title} (${role}): ${f.answers} answers, key-point precision ${f.precision.toFixed(3)}, recall ${f.recall.toFixed(3)}, paraphrase recall ${f.paraphraseRecall.toFixed(3)}, ordering ${f.orderingHolds ? 'holds' : 'broken'}, salad max ${f.saladMax}, off-topic max ${f.offTopicMax}`,
    );
  }
  log(
    `  rubric rater, ${result.words} words in ${result.entries} turns: median ${result.medianMs.toFixed(1)} ms, p90 ${result.p90Ms.toFixed(1)} ms, CPU median ${result.cpuMedianMs?.toFixed(1)} ms`,
  );
  return result;
}
