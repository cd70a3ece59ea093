/**
 * A small fixed catalogue for server tests (independent of the shipped content), plus helpers
 * that speak to the API exactly as the web app does: to an app in this process through `inject`,
 * or to a running server over HTTP (the e2e specs).
 */
import type { FastifyInstance } from 'fastify';
import type { LoginResponse, TokenResponse } from '../contract';
import type { CatalogueSet } from '../server/services/catalogue';

const answers = (...blocks: string[]) => blocks.map((b, i) => `## ${i + 1}. Question\n\n${b}`).join('\n\n');

export const FIXTURE_SETS: CatalogueSet[] = [
  {
    name: 'JavaScript',
    index: 1,
    isPremium: false,
    requiresFeedback: false,
    questions: ['What is a closure?', 'How does the event loop work?'],
    instructions: 'Keep it friendly.',
    modelAnswers: answers('A closure keeps access to its outer scope.', 'The event loop runs tasks and microtasks.'),
  },
  {
    name: 'JavaScript',
    index: 2,
    isPremium: false,
    requiresFeedback: false,
    questions: ['Explain prototypes.'],
    instructions: '',
    modelAnswers: answers('Objects delegate to their prototype.'),
  },
  {
    name: 'Behavioural',
    index: 3,
    isPremium: false,
    requiresFeedback: true,
    questions: ['Tell me about a conflict.'],
    instructions: '',
    modelAnswers: answers('Situation, task, action, result.'),
  },
  {
    name: 'System Design',
    index: 4,
    isPremium: true,
    requiresFeedback: false,
    questions: ['Design a URL shortener.'],
    instructions: '',
    modelAnswers: answers('Hashing, storage, caching, redirects.'),
  },
];

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

/** Where a test's calls go: the app in this process (`inject`), or a running server over HTTP (e2e/). */
export type ApiTarget = FastifyInstance | { url: string };
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  /** Sent as `x-user-email`. */
  email?: string;
  /** Sent as `x-admin-secret`. */
  admin?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The caller's address (in-process calls only). */
  remoteAddress?: string;
}

/**
 * The whole event of a row of the admin events list (GET /api/events/{id}): the list carries only
 * previews of the transcript and the rating Markdown (issue 33 item 2). Undefined for no row.
 */
export async function wholeEvent<T>(target: ApiTarget, row: { id: number } | undefined, options: CallOptions): Promise<T | undefined> {
  if (row === undefined) return undefined;
  const answer = await call<T>(target, 'GET', `/api/events/${row.id}`, options);
  if (answer.status !== 200) throw new Error(`GET /api/events/${row.id} answered ${answer.status}`);
  return answer.body;
}

/** One call as the web app makes it; the answer's body parsed as JSON when it is JSON. Never throws on a status. */
export async function call<T = unknown>(target: ApiTarget, method: Method, url: string, options: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.email !== undefined) headers['x-user-email'] = options.email;
  if (options.admin !== undefined) headers['x-admin-secret'] = options.admin;
  let status: number;
  let text: string;
  let answerHeaders: Answer['headers'];
  if ('inject' in target) {
    const response = await target.inject({
      method,
      url,
      headers,
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });
    [status, text, answerHeaders] = [response.statusCode, response.body, response.headers];
  } else {
    if (options.remoteAddress) throw new Error('remoteAddress is for in-process calls only.');
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${target.url}${url}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    [status, text, answerHeaders] = [response.status, await response.text(), Object.fromEntries(response.headers)];
  }
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON (HTML pages): keep the text
  }
  return { status, body: body as T, headers: answerHeaders };
}

/** Logs `email` in through the real call; throws unless it succeeds. */
export async function login(target: ApiTarget, email: string): Promise<LoginResponse> {
  const answer = await call<LoginResponse>(target, 'POST', '/user/login', { body: { email } });
  if (answer.status !== 200) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function setIds(app: FastifyInstance): Promise<Map<number, number>> {
  const answer = await call<Array<{ id: number; index: number }>>(app, 'GET', '/api/question-sets');
  return new Map(answer.body.map((s) => [s.index, s.id]));
}

/**
 * A candidate's first calls of an interview: log `email` in and mint the token of the set with
 * `index`. `T` narrows the token to the transport the test's configuration gives.
 */
export async function startInterview<T extends TokenResponse = TokenResponse>(app: FastifyInstance, email: string, index = 1): Promise<T> {
  await login(app, email);
  const setId = (await setIds(app)).get(index);
  if (setId === undefined) throw new Error(`No question set with index ${index}.`);
  const answer = await call<T>(app, 'GET', `/interview/token?questionSetId=${setId}`, { email });
  if (answer.status !== 200) throw new Error(`token failed: ${JSON.stringify(answer.body)}`);
  return answer.body;
}
