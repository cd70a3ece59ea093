/**
 * "Suggest phrasings" for the question-set editor: one chat completion with a strict JSON schema
 * (the LLM rater's conventions: schema first, the same request without it when the endpoint
 * refuses schemas, a bounded retry), answered with zod. The drafts are only proposals: the
 * operator picks which become "Also accepted" or "Contradicted by" lines, and nothing is saved
 * until they save the set.
 */
import { z } from 'zod';
import { extractJsonObject, LlmError, type ChatRequest, type LlmClient } from '../upstream/llm-client';
import { withSchemaAttempts, type SchemaSupport } from '../upstream/llm-schema-attempts';
import type { PhrasingDrafter, PhrasingDrafts, PhrasingRequest } from '../types';

/** At most this many drafts of each kind are asked for (and kept). */
export const MAX_DRAFTS = 6;

export const phrasingsJsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['accepted', 'contradicted'],
  properties: {
    accepted: {
      type: 'array',
      description: `Up to ${MAX_DRAFTS} other ways a candidate may state the key point out loud, in plain words (3 to 8 words each).`,
      items: { type: 'string' },
    },
    contradicted: {
      type: 'array',
      description: `Up to ${MAX_DRAFTS} short statements that get the key point wrong: common misconceptions, as a candidate would say them.`,
      items: { type: 'string' },
    },
  },
} as const;

const draftsSchema = z.object({ accepted: z.array(z.string()), contradicted: z.array(z.string()) });

const list = (items: readonly string[]) => (items.length === 0 ? '(none)' : items.map((i) => `- ${i}`).join('\n'));

export function buildPhrasingRequest(input: PhrasingRequest, withSchema: boolean): ChatRequest {
  const system = [
    'You help the operator of an interview-practice product write the material a word-matching rater uses for one key point of a model answer.',
    'Accepted phrasings: other ways a candidate may state the same idea out loud, in plain spoken words, 3 to 8 words each, carrying the idea itself (not a definition, not several ideas).',
    'Contradictions: short statements that get this key point wrong, the common misconceptions a candidate would say.',
    'Never propose a phrasing that states one of the other key points, and repeat none the operator already has.',
    withSchema
      ? 'Answer with the JSON object the schema describes.'
      : `Answer ONLY with one JSON object matching this JSON schema, and nothing else:\n${JSON.stringify(phrasingsJsonSchema)}`,
  ].join('\n');
  const user = [
    `Question: ${input.question}`,
    '',
    'Model answer:',
    input.modelAnswer.trim() || '(none given)',
    '',
    `Key point: ${input.keyPoint}`,
    '',
    'Other key points of the question:',
    list(input.otherKeyPoints),
    '',
    'Accepted phrasings it already has:',
    list(input.accepted),
    '',
    'Contradictions it already has:',
    list(input.contradicted),
  ].join('\n');
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    temperature: 0.4,
    max_tokens: 600,
    ...(withSchema
      ? {
          response_format: {
            type: 'json_schema' as const,
            json_schema: { name: 'key_point_phrasings', strict: true, schema: phrasingsJsonSchema },
          },
        }
      : {}),
  };
}

function parseDrafts(content: string | null): PhrasingDrafts {
  const candidate = (() => {
    try {
      return JSON.parse(content ?? '') as unknown;
    } catch {
      return extractJsonObject(content ?? '');
    }
  })();
  const parsed = draftsSchema.safeParse(candidate);
  if (!parsed.success) throw new LlmError('The language model answered phrasings that do not match the schema.', 502, true);
  return parsed.data;
}

/** The editor's budget refused a request (the editor answers its own sentence instead). */
export const PHRASINGS_REFUSED = "The editor's language-model budget refused the call.";

export function createLlmPhrasingDrafter(client: LlmClient, options: { retries?: number } = {}): PhrasingDrafter {
  const retries = options.retries ?? 1;
  const schema: SchemaSupport = { supported: true };
  return {
    model: client.model,
    draft: (input) =>
      withSchemaAttempts(schema, retries, async (withSchema) => {
        const hooks = input.reserveCall ? { reserve: input.reserveCall, refusal: PHRASINGS_REFUSED } : undefined;
        const result = await client.chat(buildPhrasingRequest(input, withSchema), hooks);
        if (result.usage) input.meter?.(result.usage);
        return parseDrafts(result.content);
      }),
  };
}
