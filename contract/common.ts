import { z } from 'zod';
import { EMAIL_PATTERN, HIDDEN_CHARACTER, HIDDEN_CHARACTER_ERROR, MAX_DB_INTEGER, MAX_EMAIL_LENGTH } from './limits';

/** Every 4xx/5xx body: one sentence a person understands. */
export const errorSchema = z.object({ error: z.string() });
export type ApiError = z.infer<typeof errorSchema>;

/**
 * One address, one account (docs/product-rules.md, Login and identity): trimmed, Unicode NFC (a
 * combining accent is the precomposed letter), no trailing dot after the domain, lower-cased.
 * Invisible and text-direction characters (Unicode control and format characters: zero-width
 * space, right-to-left override, ...) would make a look-alike of another address: refused.
 */
export const emailSchema = z
  .string({ error: 'Email must be text.' })
  .trim()
  .normalize('NFC')
  .refine((value) => !HIDDEN_CHARACTER.test(value), { error: HIDDEN_CHARACTER_ERROR, abort: true })
  .overwrite((value) => value.replace(/\.+$/, ''))
  .max(MAX_EMAIL_LENGTH, { error: `Email must be at most ${MAX_EMAIL_LENGTH} characters.` })
  .regex(EMAIL_PATTERN, { error: 'Please enter a valid email address.' })
  .transform((value) => value.toLowerCase().normalize('NFC'));

/** Identity header of the interviewee (docs/product-rules.md, Login and identity). */
export const userHeadersSchema = z.object({ 'x-user-email': emailSchema });
/** Shared admin secret header (docs/product-rules.md, Admin area); checked in constant time by the server. Optional: the admin session cookie stands in for it. */
export const adminHeadersSchema = z.object({ 'x-admin-secret': z.string().min(1).max(512).optional() });

export const idSchema = z.coerce
  .number({ error: 'The id must be a number.' })
  .int()
  .positive()
  .max(MAX_DB_INTEGER, { error: 'The id is too large.' });
/** ISO 8601 timestamp as sent over the wire. */
export const timestampSchema = z.string();
