/**
 * One place that turns every failure into `{error: "<sentence>"}`: validation problems become 400
 * sentences naming the field, unknown routes 404, anything unexpected a 500 without details.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../services/http-error';

const CONTEXT_NAMES: Record<string, string> = {
  body: 'request body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

interface ValidationIssue {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** "email: Please enter a valid email address." */
export function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return 'The request is not valid.';
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (!field && context === 'body') return 'The request body must be a JSON object.';
  const where = field || CONTEXT_NAMES[context ?? ''] || 'request';
  return sentence(`${where}: ${first.message ?? 'is not valid'}`);
}

const USER_HEADER = 'x-user-email';
const ADMIN_HEADER = 'x-admin-secret';

function missingIdentity(error: FastifyError & { validation?: ValidationIssue[] }, request: FastifyRequest): string | null {
  if (error.validationContext !== 'headers') return null;
  const fields = (error.validation ?? []).map((issue) => issue.instancePath.replace(/^\//, ''));
  if (fields.includes(USER_HEADER) && request.headers[USER_HEADER] === undefined) {
    return 'Please log in first: the x-user-email header is missing.';
  }
  if (fields.includes(ADMIN_HEADER) && request.headers[ADMIN_HEADER] === undefined) {
    return 'The admin secret is missing.';
  }
  return null;
}

/**
 * Fastify answers a malformed percent-encoding or an over-long path parameter before routing,
 * so setErrorHandler never sees it; this gives those the same `{error}` shape.
 */
export function frameworkErrorResponse(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.code(414).send({ error: 'The address is too long.' });
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply.code(400).send({ error: 'The address is not valid: it contains a broken %-encoding.' });
    return;
  }
  void reply.code(error.statusCode && error.statusCode < 500 ? error.statusCode : 400).send({ error: 'The request is not valid.' });
}

/**
 * JSON bodies: an empty body with a JSON content type is no body (browsers' fetch wrappers send
 * the header on GET and DELETE too); keys that could poison prototypes are dropped.
 */
function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(
        null,
        JSON.parse(text, (key, value: unknown) => (key === '__proto__' || key === 'constructor' ? undefined : value)),
      );
    } catch {
      done(new HttpError(400, 'The request body is not valid JSON.'), undefined);
    }
  });
}

/** What an unexpected failure answers (500): the details go to the log only. */
export const SERVER_FAULT = 'Something went wrong on our side. Please try again.';
export const NUL_IN_INPUT = 'Text must not contain the NUL character (\\u0000).';
export const ILL_FORMED_INPUT = 'Text must be valid Unicode: it contains a lone surrogate (half of a character).';

type TextProblem = 'nul' | 'ill-formed' | null;
const LONE_SURROGATE = /\p{Cs}/u;

export const BROKEN_QUERY = 'The address is not valid: its query has a broken %-encoding.';

/** A query whose %-escapes are not UTF-8 (e.g. %ED%A0%80, an encoded lone surrogate) is ill-formed. */
function queryIsWellFormed(url: string): boolean {
  const start = url.indexOf('?');
  if (start < 0) return true;
  try {
    decodeURIComponent(url.slice(start + 1).replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

function textProblem(text: string): TextProblem {
  if (text.includes('\u0000')) return 'nul';
  // In a /u pattern a well-formed pair is one code point, so \p{Cs} only matches a lone half.
  return LONE_SURROGATE.test(text) ? 'ill-formed' : null;
}

/**
 * PostgreSQL text and jsonb hold neither U+0000 nor a lone UTF-16 surrogate, so such input is
 * refused before it gets near a service (or a paid upstream call).
 */
function findTextProblem(value: unknown, depth = 0): TextProblem {
  if (typeof value === 'string') return textProblem(value);
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  // Binary bodies (an answer's audio) hold NUL bytes by nature and never reach a text column;
  // walking a Buffer's entries would also cost a long pause per request.
  if (ArrayBuffer.isView(value)) return null;
  const items = Array.isArray(value) ? value : Object.entries(value).flat();
  for (const item of items) {
    const problem = findTextProblem(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    if (!queryIsWellFormed(request.url)) return reply.code(400).send({ error: BROKEN_QUERY });
    const problem =
      findTextProblem(request.body) ??
      findTextProblem(request.query) ??
      findTextProblem(request.params) ??
      findTextProblem(request.headers);
    if (problem) return reply.code(400).send({ error: problem === 'nul' ? NUL_IN_INPUT : ILL_FORMED_INPUT });
  });

  registerJsonParser(app);
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send({ error: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const identity = missingIdentity(error, request);
      if (identity) return reply.code(401).send({ error: identity });
      return reply.code(400).send({ error: describeValidation(error.validationContext, error.validation) });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.code(413).send({ error: 'The request body is too large.' });
    if (status === 415) return reply.code(415).send({ error: 'Please send the request body as JSON (content-type: application/json).' });
    if (status === 429) return reply.code(429).send({ error: 'Too many requests. Please wait a minute and try again.' });
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error instanceof SyntaxError)) {
      return reply.code(400).send({ error: 'The request body is not valid JSON.' });
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: sentence(error.message || 'The request is not valid') });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: SERVER_FAULT });
  });
}
