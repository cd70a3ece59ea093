/**
 * The LLM rater: chat completions with a strict JSON schema, the answer validated with zod and
 * turned into Markdown here (so the layout is ours, not the model's). The model names the key
 * points the candidate stated, each with the candidate's quote; the server keeps only credits
 * whose quote is really in the transcript and computes the score itself, so a model that invents
 * evidence cannot raise a score. After bounded retries the rubric rater answers instead, and the
 * Markdown says so. The rubric rater (`fallback`, the server's rater workers) also judges every
 * rating once: answers that are no answer keep its verdict.
 */
import { z } from 'zod';
import type { RatingBreakdown, TranscriptEntry } from '../../../contract';
import { readerModelAnswers, splitModelAnswers } from '../../catalogue/model-answers';
import {
  deliveryFigures,
  formatDeliveryMarkdown,
  normaliseWords,
  questionFeedback,
  quote,
  quoteIsInTranscript,
  RUBRIC_RATER_NAME,
} from '../../rater';
import { extractJsonObject, LlmError, type ChatRequest, type LlmClient } from '../upstream/llm-client';
import { withSchemaAttempts, type SchemaSupport } from '../upstream/llm-schema-attempts';
import type { Rater, RatingInput, RatingResult } from '../types';

/** Longest transcript text sent to the model; a longer one keeps its start and end. */
export const MAX_PROMPT_TRANSCRIPT_CHARS = 60_000;
/** Language-model calls one rating makes at most by default: the first and its retries (the session's rater budget is a multiple). */
export const LLM_RATING_ATTEMPTS = 3;
/** Why the rubric rated (the admin's rater field): the session's rater calls were spent. */
export const RATER_BUDGET_SPENT = "The session's language-model calls for rating are spent.";

export const ratingJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['summary', 'questions', 'improvements'],
  properties: {
    summary: { type: 'string', description: 'Two or three sentences on the interview as a whole, addressed to the candidate.' },
    questions: {
      type: 'array',
      description: 'One entry per question of the set, in order.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['number', 'credits', 'feedback'],
        properties: {
          number: { type: 'integer', description: 'The question number, starting at 1.' },
          credits: {
            type: 'array',
            description:
              "The key points of this question the candidate really stated, each with the candidate's own words that state it. Leave a key point out when the candidate did not state it.",
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['keyPoint', 'quote'],
              properties: {
                keyPoint: { type: 'string', description: 'The key point, copied exactly from the model answers.' },
                quote: { type: 'string', description: "The candidate's words that state it, copied exactly from the transcript." },
              },
            },
          },
          feedback: { type: 'string', description: 'What was good and what was missing, addressed to the candidate.' },
        },
      },
    },
    improvements: { type: 'array', items: { type: 'string' }, description: 'Concrete things to practise next.' },
  },
} as const;

const ratingSchema = z.object({
  summary: z.string().trim().min(1),
  questions: z.array(
    z.object({
      number: z.number().int().min(1),
      credits: z.array(z.object({ keyPoint: z.string(), quote: z.string() })),
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
  /** Further attempts after the first (default LLM_RATING_ATTEMPTS - 1). */
  retries?: number;
  /** Pause before a retry; tests pass a no-op. */
  sleep?: (ms: number) => Promise<void>;
  /** For the log: why the fallback was used. */
  onFallback?: (error: Error) => void;
}

function transcriptForPrompt(transcripts: TranscriptEntry[]): string {
  const text = transcripts
    .map((t) => `${t.role === 'interviewer' ? 'Interviewer' : 'Candidate'}: ${t.transcript.replace(/\s+/g, ' ').trim()}`)
    .join('\n');
  if (text.length <= MAX_PROMPT_TRANSCRIPT_CHARS) return text;
  const half = MAX_PROMPT_TRANSCRIPT_CHARS / 2;
  return `${text.slice(0, half)}\n[... the middle of a very long transcript is left out ...]\n${text.slice(-half)}`;
}

/** A rating's JSON: a summary, per question its credits with quotes and a line of feedback, a few improvements. */
export const RATING_MAX_TOKENS = 4000;

export function buildRatingRequest(input: RatingInput, withSchema: boolean): ChatRequest {
  const system = [
    'You assess spoken practice interviews and write honest, specific, encouraging written feedback.',
    'For each question, list the key points from the model answers that the candidate really stated, each with the exact words of the candidate that state it.',
    'A key point counts only when the candidate stated it: not when they asked about it, negated it, said they did not know it, or only listed its words.',
    'Never invent what the candidate said: every quote is checked against the transcript, and a credit whose quote is not there is dropped. The score is computed from the checked credits.',
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
    // Without the word matcher's phrasing lists: a model reads meaning, and they would double the prompt's tokens.
    readerModelAnswers(input.set.modelAnswers).trim() || '(none given)',
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
    max_tokens: RATING_MAX_TOKENS,
    ...(withSchema
      ? {
          response_format: {
            type: 'json_schema' as const,
            json_schema: { name: 'interview_rating', strict: true, schema: ratingJsonSchema },
          },
        }
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

const sameText = (a: string, b: string): boolean => normaliseWords(a).join(' ') === normaliseWords(b).join(' ');

/**
 * Holds the model to the evidence rule: a credit counts only for a key point of that question,
 * with a quote that is the candidate's words. Answers that are no answer at all (nothing said,
 * term lists, repetition) keep the rubric's verdict. The score is computed here from what is left.
 */
export function verifiedBreakdown(rating: LlmRating, input: RatingInput, rubric: RatingBreakdown): RatingBreakdown {
  const spoken = normaliseWords(
    input.transcripts
      .filter((t) => t.role === 'interviewee')
      .map((t) => t.transcript)
      .join(' '),
  );
  const models = splitModelAnswers(input.set.modelAnswers, input.set.questions.length);
  return input.set.questions.map((question, i) => {
    const keyPoints = models[i]?.keyPoints ?? [];
    const base = rubric[i];
    if (base && (base.verdict === 'Not answered' || base.verdict === 'Not a real answer')) return base;
    const credits = rating.questions[i]?.credits ?? [];
    const covered: string[] = [];
    const evidence: string[] = [];
    for (const point of keyPoints) {
      const credit = credits.find((c) => sameText(c.keyPoint, point) && quoteIsInTranscript(c.quote, spoken));
      if (credit) {
        covered.push(point);
        evidence.push(quote(credit.quote));
      }
    }
    const score = keyPoints.length === 0 ? 0 : Math.round((100 * covered.length) / keyPoints.length);
    const verdict = covered.length === 0 ? 'Thin answer' : score >= 70 ? 'Answered well' : score >= 40 ? 'Partly answered' : 'Thin answer';
    return { question, verdict, score, covered, missed: keyPoints.filter((p) => !covered.includes(p)), evidence };
  });
}

export function ratingMarkdown(rating: LlmRating, breakdown: RatingBreakdown, score: number, model: string, delivery: string): string {
  const parts = ['## Summary', '', oneLine(rating.summary), '', `**Score: ${score}/100**`, '', '## Question by question'];
  breakdown.forEach((item, i) => {
    parts.push('', `### ${i + 1}. ${oneLine(item.question)}`, '', ...questionFeedback(item, [], 2));
    const feedback = oneLine(rating.questions[i]?.feedback ?? '');
    if (feedback && item.verdict !== 'Not answered' && item.verdict !== 'Not a real answer') parts.push('', feedback);
  });
  const improvements = rating.improvements.map(oneLine).filter(Boolean);
  if (improvements.length > 0) parts.push('', '## What to improve', '', ...improvements.map((i) => `- ${i}`));
  parts.push(
    '',
    delivery.trim(),
    '',
    '---',
    '',
    `_Feedback written by the language model ${model}; each credited key point was checked against your own words._`,
  );
  return parts.join('\n');
}

/** What the candidate reads: no endpoint address, no upstream text (those go to the log and the admin's rater field). */
export const FALLBACK_NOTE = '> The AI rater could not rate this interview, so this feedback comes from the built-in rubric rater.';

/** The admin event's rater: who rated, and why the model did not (at most 300 characters). */
export function fallbackRater(model: string, error: Error): string {
  const reason = error.message.replace(/\s+/g, ' ').trim();
  const text = `${RUBRIC_RATER_NAME} (llm:${model} failed: ${reason})`;
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

export function createLlmRater(options: LlmRaterOptions): Rater {
  const { client, fallback } = options;
  const retries = options.retries ?? LLM_RATING_ATTEMPTS - 1;
  const deliveryMarkdown = options.deliveryMarkdown ?? ((t: TranscriptEntry[], d: number) => formatDeliveryMarkdown(deliveryFigures(t, d)));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  // Endpoints without json_schema support refuse it every time; learned once per process.
  const schema: SchemaSupport = { supported: true };

  const rateWithLlm = (input: RatingInput): Promise<RatingResult> =>
    withSchemaAttempts(
      schema,
      retries,
      async (withSchema) => {
        // Reserved before it is paid for (each request, the client's own second try too): a session's
        // ratings, retries and restarts share one budget, and so do the editor's calls.
        const hooks = input.reserveCall ? { reserve: input.reserveCall, refusal: RATER_BUDGET_SPENT } : undefined;
        const result = await client.chat(buildRatingRequest(input, withSchema), hooks);
        // Metered also when the endpoint reports no usage: the session's telemetry counts every completion.
        input.meter?.(result.usage ?? { model: client.model, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 });
        const rating = parseRating(result.content, input.set.questions.length);
        const delivery = deliveryMarkdown(input.transcripts, input.durationSeconds);
        const breakdown = verifiedBreakdown(rating, input, (await fallback.rate(input)).breakdown);
        const score = Math.round(breakdown.reduce((sum, b) => sum + b.score, 0) / Math.max(1, breakdown.length));
        return {
          score,
          markdown: ratingMarkdown(rating, breakdown, score, client.model, delivery),
          breakdown,
          rater: `llm:${client.model}`,
        };
      },
      (attempt) => sleep(500 * attempt),
    );

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
        return { ...rubric, rater: fallbackRater(client.model, reason), markdown: `${FALLBACK_NOTE}\n\n${rubric.markdown}` };
      }
    },
  };
}
