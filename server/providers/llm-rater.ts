/**
 * The LLM rater: chat completions with a strict JSON schema, the answer validated with zod and
 * turned into Markdown here (so the layout is ours, not the model's). Quotes the model offers as
 * evidence are shown only when they really are the candidate's words. After bounded retries the
 * rubric rater answers instead, and the Markdown says so.
 */
import { z } from 'zod';
import type { TranscriptEntry } from '../../contract';
import { deliveryFigures, formatDeliveryMarkdown } from './delivery-figures';
import { extractJsonObject, LlmError, type ChatRequest, type LlmClient } from './llm-client';
import type { Rater, RatingInput, RatingResult } from './types';

export const VERDICTS = ['answered', 'partly', 'not answered'] as const;
const VERDICT_LABEL: Record<(typeof VERDICTS)[number], string> = {
  answered: 'Answered',
  partly: 'Partly answered',
  'not answered': 'Not answered',
};

/** Longest transcript text sent to the model; a longer one keeps its start and end. */
const MAX_PROMPT_TRANSCRIPT_CHARS = 60_000;

export const ratingJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['score', 'summary', 'questions', 'improvements'],
  properties: {
    score: { type: 'integer', description: 'Overall score from 0 (nothing answered) to 100 (excellent).' },
    summary: { type: 'string', description: 'Two or three sentences on the interview as a whole, addressed to the candidate.' },
    questions: {
      type: 'array',
      description: 'One entry per question of the set, in order.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['number', 'verdict', 'evidence', 'feedback'],
        properties: {
          number: { type: 'integer', description: 'The question number, starting at 1.' },
          verdict: { type: 'string', enum: [...VERDICTS] },
          evidence: {
            type: 'string',
            description: "A short exact quote of the candidate's own words from the transcript; empty when not answered.",
          },
          feedback: { type: 'string', description: 'What was good and what was missing, addressed to the candidate.' },
        },
      },
    },
    improvements: { type: 'array', items: { type: 'string' }, description: 'Concrete things to practise next.' },
  },
} as const;

const ratingSchema = z.object({
  score: z.number().int().min(0).max(100),
  summary: z.string().trim().min(1),
  questions: z.array(
    z.object({
      number: z.number().int().min(1),
      verdict: z.enum(VERDICTS),
      evidence: z.string(),
      feedback: z.string(),
    }),
  ),
  improvements: z.array(z.string()),
});
type LlmRating = z.infer<typeof ratingSchema>;

export interface LlmRaterOptions {
  client: LlmClient;
  /** The rubric rater: answers when the LLM cannot, and for transcripts without a word from the candidate. */
  fallback: Rater;
  /** The deterministic delivery figures as Markdown; default: the rubric rater's, so both report the same numbers. */
  deliveryMarkdown?: (transcripts: TranscriptEntry[], durationSeconds: number) => string;
  /** Further attempts after the first (default 2). */
  retries?: number;
  /** Pause before a retry; tests pass a no-op. */
  sleep?: (ms: number) => Promise<void>;
  /** For the log: why the fallback was used. */
  onFallback?: (error: Error) => void;
}

const normalise = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

function transcriptForPrompt(transcripts: TranscriptEntry[]): string {
  const text = transcripts
    .map((t) => `${t.role === 'interviewer' ? 'Interviewer' : 'Candidate'}: ${t.transcript.replace(/\s+/g, ' ').trim()}`)
    .join('\n');
  if (text.length <= MAX_PROMPT_TRANSCRIPT_CHARS) return text;
  const half = MAX_PROMPT_TRANSCRIPT_CHARS / 2;
  return `${text.slice(0, half)}\n[... the middle of a very long transcript is left out ...]\n${text.slice(-half)}`;
}

export function buildRatingRequest(input: RatingInput, withSchema: boolean): ChatRequest {
  const system = [
    'You assess spoken practice interviews and write honest, specific, encouraging written feedback.',
    'Judge each question against the model answers: "answered" when the key points are covered, "partly" when some are, "not answered" when the candidate did not address it.',
    "Quote the candidate's own words exactly as evidence. Never invent what the candidate said; the transcript comes from speech recognition, so ignore small recognition slips.",
    'The score reflects the content of the answers (0 when nothing was answered).',
    withSchema
      ? 'Answer with the JSON object the schema describes.'
      : `Answer ONLY with one JSON object matching this JSON schema, and nothing else:\n${JSON.stringify(ratingJsonSchema)}`,
  ].join('\n');
  const user = [
    `Question set: ${input.set.name}`,
    '',
    'Questions:',
    ...input.set.questions.map((q, i) => `${i + 1}. ${q}`),
    '',
    'Model answers (for you only):',
    input.set.modelAnswers.trim() || '(none given)',
    '',
    `Interview duration: ${input.durationSeconds} seconds.`,
    'Transcript:',
    transcriptForPrompt(input.transcripts),
  ].join('\n');
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    temperature: 0.2,
    ...(withSchema
      ? { response_format: { type: 'json_schema' as const, json_schema: { name: 'interview_rating', strict: true, schema: ratingJsonSchema } } }
      : {}),
  };
}

function parseRating(content: string | null, questionCount: number): LlmRating {
  const candidate = (() => {
    try {
      return JSON.parse(content ?? '') as unknown;
    } catch {
      return extractJsonObject(content ?? '');
    }
  })();
  const parsed = ratingSchema.safeParse(candidate);
  if (!parsed.success) throw new LlmError('The language model answered a rating that does not match the schema.', 502, true);
  const numbers = parsed.data.questions.map((q) => q.number).sort((a, b) => a - b);
  if (numbers.length !== questionCount || numbers.some((n, i) => n !== i + 1)) {
    throw new LlmError(`The language model rated ${numbers.length} questions instead of the set's ${questionCount}.`, 502, true);
  }
  return { ...parsed.data, questions: [...parsed.data.questions].sort((a, b) => a.number - b.number) };
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

export function ratingMarkdown(rating: LlmRating, input: RatingInput, model: string, delivery: string): string {
  const spoken = normalise(
    input.transcripts
      .filter((t) => t.role === 'interviewee')
      .map((t) => t.transcript)
      .join(' '),
  );
  const parts = ['## Summary', '', oneLine(rating.summary), '', `**Score: ${rating.score}/100**`, '', '## Question by question'];
  for (const q of rating.questions) {
    const question = input.set.questions[q.number - 1] ?? '';
    const quote = normalise(q.evidence);
    parts.push('', `### ${q.number}. ${oneLine(question)}`, '', `**Verdict:** ${VERDICT_LABEL[q.verdict]}`);
    if (quote && spoken.includes(quote)) parts.push('', `> "${oneLine(q.evidence)}"`);
    if (q.feedback.trim()) parts.push('', oneLine(q.feedback));
  }
  const improvements = rating.improvements.map(oneLine).filter(Boolean);
  if (improvements.length > 0) parts.push('', '## What to improve', '', ...improvements.map((i) => `- ${i}`));
  parts.push('', delivery.trim(), '', '---', '', `_Feedback written by the language model ${model}._`);
  return parts.join('\n');
}

export function fallbackNote(error: Error): string {
  return `> The AI rater could not rate this interview (${error.message.replace(/\s+/g, ' ').trim()}), so this feedback comes from the built-in rubric rater.`;
}

export function createLlmRater(options: LlmRaterOptions): Rater {
  const { client, fallback } = options;
  const retries = options.retries ?? 2;
  const deliveryMarkdown =
    options.deliveryMarkdown ?? ((t: TranscriptEntry[], d: number) => formatDeliveryMarkdown(deliveryFigures(t, d)));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  // Endpoints without json_schema support refuse it every time; learned once per process.
  let schemaSupported = true;

  async function rateWithLlm(input: RatingInput): Promise<RatingResult> {
    let lastError: Error = new Error('no attempt made');
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(500 * attempt);
      try {
        const result = await client.chat(buildRatingRequest(input, schemaSupported));
        const rating = parseRating(result.content, input.set.questions.length);
        const delivery = deliveryMarkdown(input.transcripts, input.durationSeconds);
        return { score: rating.score, markdown: ratingMarkdown(rating, input, client.model, delivery), rater: `llm:${client.model}` };
      } catch (error) {
        lastError = error instanceof Error ? error : new Error(String(error));
        const refusedSchema = error instanceof LlmError && (error.rejectedRequest || /response_format|json_schema/i.test(error.message));
        if (refusedSchema && schemaSupported) {
          schemaSupported = false;
          attempt--; // Asking the same endpoint without the schema is not a retry of the same request.
          continue;
        }
        if (!(error instanceof LlmError) || !error.retryable) break;
      }
    }
    throw lastError;
  }

  return {
    async rate(input) {
      const candidateSpoke = input.transcripts.some((t) => t.role === 'interviewee' && t.transcript.trim() !== '');
      // Nothing to judge: the rubric's honest zero needs no model.
      if (!candidateSpoke || input.set.questions.length === 0) return fallback.rate(input);
      try {
        return await rateWithLlm(input);
      } catch (error) {
        const reason = error instanceof Error ? error : new Error(String(error));
        options.onFallback?.(reason);
        const rubric = await fallback.rate(input);
        return { ...rubric, markdown: `${fallbackNote(reason)}\n\n${rubric.markdown}` };
      }
    },
  };
}
