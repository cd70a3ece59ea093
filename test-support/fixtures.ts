/**
 * A small fixed catalogue for server tests (independent of the shipped content), plus helpers
 * that speak to an app through `inject` exactly as the web app does.
 */
import type { FastifyInstance } from 'fastify';
import type { TokenResponse } from '../contract';
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

export async function call<T = unknown>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: { email?: string; admin?: string; body?: unknown; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.email !== undefined) headers['x-user-email'] = options.email;
  if (options.admin !== undefined) headers['x-admin-secret'] = options.admin;
  const response = await app.inject({
    method,
    url,
    headers,
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  });
  const text = response.body;
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON (HTML pages): keep the text
  }
  return { status: response.statusCode, body: body as T, headers: response.headers };
}

export async function login(app: FastifyInstance, email: string) {
  const answer = await call<{ isNewUser: boolean }>(app, 'POST', '/user/login', { body: { email } });
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
