/**
 * The operator's console calls: credits, streamed exports, the question-set editor, daily stats
 * and data requests. Registered by admin.ts inside its scope, behind the same secret check.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminHeadersSchema,
  adminQuestionSetListSchema,
  adminQuestionSetSchema,
  dailyStatsQuerySchema,
  dailyStatsSchema,
  emailAccountSchema,
  emailParamsSchema,
  emailPatchSchema,
  errorSchema,
  questionSetDeleteSchema,
  questionSetInputSchema,
  questionSetParamsSchema,
  questionSetPositionSchema,
  phrasingSuggestionsSchema,
  setAssistantSchema,
  suggestPhrasingsSchema,
  tryAnswerResultSchema,
  tryAnswerSchema,
  userDataSchema,
  userErasureSchema,
} from '../../contract';
import { RATINGS_CSV_NAME } from '../../domain/csv-exports';
import type { AppContext } from '../app-context';
import {
  setSessionLimit,
  exportFeedback,
  exportRatings,
  createQuestionSet,
  deleteQuestionSet,
  listAdminQuestionSets,
  moveQuestionSet,
  updateQuestionSet,
  setAssistant,
  suggestPhrasings,
  tryAnswer,
  dailyStats,
  eraseUser,
  userData,
} from '../services/admin';
import { perMinute } from '../plugins/security';
import type { QuestionSetCache } from '../services/question-set-cache';

const denied = { 401: errorSchema, 429: errorSchema };
const tags = ['admin'];
const security = [{ admin: [] }];
const headers = adminHeadersSchema;
/** The editor's helpers per client address (the language model's calls also count against EDITOR_LLM_CALLS_PER_HOUR). */
const TRIES_PER_MINUTE = 30;
const SUGGESTIONS_PER_MINUTE = 10;
/** A language-model call that failed upstream. */
const modelErrors = { 502: errorSchema, 503: errorSchema, 504: errorSchema };

/** A CSV download, or 204 when there is nothing to export. */
function sendCsv(reply: FastifyReply, fileName: string, chunks: AsyncIterable<string> | null) {
  if (!chunks) return reply.code(204).send();
  return (
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      // One page ahead at most: the socket's pace decides how fast rows are read.
      .send(Readable.from(chunks, { highWaterMark: 1 }))
  );
}

const csvResponse = {
  200: z.string().describe('CSV (UTF-8 with a byte-order mark), streamed.'),
  204: z.null().describe('Nothing to export.'),
  ...denied,
};

function creditAndExportRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  r.patch(
    '/api/emails/:email',
    {
      schema: {
        tags,
        security,
        description: "Sets the account's own session limit; null returns it to its plan's default. Adding credits is a higher limit.",
        headers,
        params: emailParamsSchema,
        body: emailPatchSchema,
        response: { 200: emailAccountSchema, 400: errorSchema, 404: errorSchema, ...denied },
      },
    },
    (request) => setSessionLimit(ctx.db, ctx.config, request.params.email, request.body.sessionLimit),
  );
  // The plain instance: the answer is a stream, not an object to serialise.
  scope.get(
    '/api/admin/exports/ratings.csv',
    {
      schema: {
        tags,
        security,
        headers,
        description: 'Every RATE event with its transcript and rating.',
        produces: ['text/csv'],
        response: csvResponse,
      },
    },
    async (_request, reply) => sendCsv(reply, RATINGS_CSV_NAME, await exportRatings(ctx.db)),
  );
  scope.get(
    '/api/admin/exports/feedback.csv',
    { schema: { tags, security, headers, description: 'Every feedback row.', produces: ['text/csv'], response: csvResponse } },
    async (_request, reply) => sendCsv(reply, `feedback_data_${new Date().toISOString().slice(0, 10)}.csv`, await exportFeedback(ctx.db)),
  );
}

function questionSetRoutes(scope: FastifyInstance, ctx: AppContext, catalogue: QuestionSetCache): void {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const params = questionSetParamsSchema;
  r.get(
    '/api/admin/question-sets',
    {
      schema: {
        tags,
        security,
        headers,
        description: 'Every set with instructions, questions and model answers: active ones by index, then archived.',
        response: { 200: adminQuestionSetListSchema, ...denied },
      },
    },
    () => listAdminQuestionSets(ctx.db),
  );
  r.post(
    '/api/admin/question-sets',
    {
      schema: {
        tags,
        security,
        headers,
        description: 'Inserts the set at its index (1 to the number of sets + 1); the set there and the later ones move one place down.',
        body: questionSetInputSchema,
        response: { 201: adminQuestionSetSchema, 400: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request, reply) => {
      const created = await createQuestionSet(ctx.db, request.body);
      catalogue.invalidate();
      return reply.code(201).send(created);
    },
  );
  r.put(
    '/api/admin/question-sets/:id',
    {
      schema: {
        tags,
        security,
        headers,
        params,
        body: questionSetInputSchema,
        response: { 200: adminQuestionSetSchema, 400: errorSchema, 404: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => {
      const updated = await updateQuestionSet(ctx.db, request.params.id, request.body);
      catalogue.invalidate();
      return updated;
    },
  );
  r.get(
    '/api/admin/question-sets/assistant',
    {
      schema: {
        tags,
        security,
        headers,
        description: "What the editor's language-model helpers can do on this server: the model's name, or why they are unavailable.",
        response: { 200: setAssistantSchema, ...denied },
      },
    },
    () => setAssistant(ctx),
  );
  r.post(
    '/api/admin/question-sets/try-answer',
    {
      config: { rateLimit: perMinute(TRIES_PER_MINUTE) },
      schema: {
        tags,
        security,
        headers,
        description:
          'How the built-in rater judges an answer to one question of the set as drafted: verdict, score, each key point with the statement that earned it, contradicted it or came close; with `languageModel: true` also the language-model rater (one call of EDITOR_LLM_CALLS_PER_HOUR). Nothing is saved; no credit is spent.',
        body: tryAnswerSchema,
        response: { 200: tryAnswerResultSchema, 400: errorSchema, 409: errorSchema, ...modelErrors, ...denied },
      },
    },
    (request) => tryAnswer(ctx, request.body),
  );
  r.post(
    '/api/admin/question-sets/suggest-phrasings',
    {
      config: { rateLimit: perMinute(SUGGESTIONS_PER_MINUTE) },
      schema: {
        tags,
        security,
        headers,
        description:
          'Drafts "Also accepted" phrasings and "Contradicted by" misconceptions for one key point of the set as drafted, with the configured language model (one call of EDITOR_LLM_CALLS_PER_HOUR); 409 without one. Nothing is saved: the operator picks what to add.',
        body: suggestPhrasingsSchema,
        response: { 200: phrasingSuggestionsSchema, 400: errorSchema, 409: errorSchema, ...modelErrors, ...denied },
      },
    },
    (request) => suggestPhrasings(ctx, request.body),
  );
  r.put(
    '/api/admin/question-sets/:id/position',
    {
      schema: {
        tags,
        security,
        headers,
        params,
        description:
          'Moves the set to another place in the tile order; the sets in between shift by one, in one transaction. Answers the whole list.',
        body: questionSetPositionSchema,
        response: { 200: adminQuestionSetListSchema, 400: errorSchema, 404: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => {
      const list = await moveQuestionSet(ctx.db, request.params.id, request.body.index);
      catalogue.invalidate();
      return list;
    },
  );
  r.delete(
    '/api/admin/question-sets/:id',
    {
      schema: {
        tags,
        security,
        headers,
        params,
        description:
          'Deletes the set, or archives it (hidden from candidates, index freed) when interviews refer to it; the later sets move up one place.',
        response: { 200: questionSetDeleteSchema, 404: errorSchema, ...denied },
      },
    },
    async (request) => {
      const result = await deleteQuestionSet(ctx.db, request.params.id);
      catalogue.invalidate();
      return result;
    },
  );
}

function statsAndUserRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/admin/stats/daily',
    {
      schema: {
        tags,
        security,
        headers,
        querystring: dailyStatsQuerySchema,
        response: { 200: dailyStatsSchema, 400: errorSchema, ...denied },
      },
    },
    (request) => dailyStats(ctx.db, request.query.days),
  );
  r.get(
    '/api/admin/users/:email',
    {
      schema: {
        tags,
        security,
        headers,
        params: emailParamsSchema,
        description: 'Everything stored about one person.',
        response: { 200: userDataSchema, 404: errorSchema, ...denied },
      },
    },
    (request) => userData(ctx.db, ctx.config, request.params.email),
  );
  r.delete(
    '/api/admin/users/:email',
    {
      schema: {
        tags,
        security,
        headers,
        params: emailParamsSchema,
        description: 'Erases the account, its sessions, events (transcripts, ratings) and feedback; answers what was removed.',
        response: { 200: userErasureSchema, 404: errorSchema, ...denied },
      },
    },
    (request) => eraseUser(ctx.db, ctx.limits, request.params.email),
  );
}

export function adminConsoleRoutes(scope: FastifyInstance, ctx: AppContext, catalogue: QuestionSetCache): void {
  creditAndExportRoutes(scope, ctx);
  questionSetRoutes(scope, ctx, catalogue);
  statsAndUserRoutes(scope, ctx);
}
