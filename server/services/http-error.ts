/**
 * Thrown by services: the status and the sentence the caller sees. It lives with the services
 * (not the Fastify error plugin) so the rules import nothing of the web framework; the error
 * handler in server/plugins/errors.ts turns it into `{error}`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
