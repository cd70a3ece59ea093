/**
 * fast-check generators of hostile input for the fuzz test: values that are wrong for a given
 * field by construction (wrong types, out of range, too long, malformed), mixed with the payloads
 * attackers send (SQL, HTML, unicode, NUL, lone surrogates, huge numbers). Kept apart so the test reads as a list
 * of routes.
 */
import fc from 'fast-check';
import { emailSchema, MAX_EMAIL_LENGTH } from '../contract';

export const SQL_PAYLOADS = [
  "' OR '1'='1",
  "'; DROP TABLE accounts; --",
  '1; DELETE FROM events',
  "admin'--",
  '1 UNION SELECT email FROM accounts',
  "'); TRUNCATE feedback; --",
];
export const HTML_PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  '{{constructor.constructor("alert(1)")()}}',
];
/** Halves of a UTF-16 pair on their own (JSON can carry them as \ud800 escapes). */
export const LONE_SURROGATES = ['a\ud800b', '\udc00', 'end\ud83d', '\ude00start', '\udfff\ud800'];
const WEIRD = [
  ...LONE_SURROGATES,
  '\u0000',
  '\u202e',
  '\ud83d\ude00',
  '\uffff',
  'Ω≈ç√',
  '\u200b',
  '\r\n',
  '%00',
  '../../etc/passwd',
  '__proto__',
  'constructor',
];

/** Text an attacker would try: payloads, unicode, NUL, mixtures, plain random strings. */
export const hostileText = fc.oneof(
  fc.constantFrom(...SQL_PAYLOADS, ...HTML_PAYLOADS, ...WEIRD),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  // Any UTF-16 code unit, so lone surrogates anywhere in the text.
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)), maxLength: 20 }),
  fc.tuple(fc.constantFrom(...SQL_PAYLOADS, ...HTML_PAYLOADS), fc.constantFrom(...WEIRD)).map(([a, b]) => a + b),
);

/** Any JSON value that is not a string. */
export const notAString = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 3 }),
);

/** Any JSON value that is not a number. */
export const notANumber = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileText,
  fc.integer().map(String),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

export function isValidEmail(value: string): boolean {
  return emailSchema.safeParse(value).success;
}

/** Strings that are not an email address, or too long to be one. */
export const notAnEmail = fc.oneof(
  hostileText.filter((s) => !isValidEmail(s)),
  fc.constantFrom('', ' ', 'a b@c.de', 'no-at-sign', '@x.co', 'a@b', 'a@@b.co', 'a@b .co'),
  fc.constant(`${'a'.repeat(MAX_EMAIL_LENGTH)}@example.com`),
);

/** Emails of the right shape that nobody registered (SQL and HTML inside the local part). */
export const unknownEmail = fc.oneof(
  fc.emailAddress().filter((e) => e.length <= MAX_EMAIL_LENGTH),
  fc.constantFrom("'or'1'='1'@x.co", '<script>@x.co', "robert');drop@x.co", 'ünï©ødé@exämple.com', 'x@y.z\u202e'),
);

/** A positive id that no row has, including ids beyond the database's integer range. */
export const unknownId = fc.oneof(
  fc.integer({ min: 100_000, max: 2_147_483_647 }),
  fc.constantFrom(2_147_483_648, 9_007_199_254_740_991, 99_999_999_999),
);

/** Query or path text that is not a positive whole number (or is one that does not exist). */
export const badIdText = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', 'abc', '', '1e400', 'NaN', 'Infinity', '1;DROP TABLE events', '%00', '%27%20OR%201%3D1'),
  hostileText.map((s) => encodeForUrl(s)),
  unknownId.map(String),
);

/** Header values as the bytes a client could put on the wire (unicode sent as raw UTF-8). */
export function headerSafe(value: string): string {
  return (
    Buffer.from(value, 'utf8')
      .toString('latin1')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '')
  );
}

/** A fresh client address per request, so per-address limits do not hide the route's own answer. */
let addressCounter = 0;
export function nextAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

export type JsonObject = Record<string, unknown>;

/** A raw JSON text whose last duplicate of `key` carries the bad value (JSON.parse keeps the last). */
export function duplicatedKey(valid: JsonObject, key: string, bad: unknown): string {
  const inner = JSON.stringify(valid).slice(1, -1);
  return `{${inner}${inner ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(bad) ?? 'null'}}`;
}

/** A request body payload: either a JSON value (sent as JSON) or a raw text with its own content type. */
export type BodyCase = { json: unknown } | { raw: string; contentType: string };

/**
 * Bodies that are wrong by construction, built from a valid one: a required field missing, one
 * field wrong, a duplicated field whose last copy is wrong, not an object, not JSON, or not JSON
 * at all (content type). Extra hostile fields ride along.
 */
export function badBodies(valid: JsonObject, required: string[], badValues: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<BodyCase> {
  const fields = Object.keys(badValues);
  const extras = fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'admin', 'id', 'role', 'x'), hostileText, { maxKeys: 2 });
  const oneBadField = fc.constantFrom(...fields).chain((field) => fc.tuple(fc.constant(field), badValues[field] ?? notAString));
  return fc.oneof(
    fc.tuple(fc.constantFrom(...required), extras).map(([field, extra]): BodyCase => {
      const body: JsonObject = { ...extra, ...valid };
      delete body[field];
      return { json: body };
    }),
    fc.tuple(oneBadField, extras).map(([[field, value], extra]): BodyCase => ({ json: { ...extra, ...valid, [field]: value } })),
    oneBadField.map(([field, value]): BodyCase => ({ raw: duplicatedKey(valid, field, value), contentType: 'application/json' })),
    fc
      .oneof(fc.constant(null), fc.array(fc.jsonValue(), { maxLength: 3 }), fc.integer(), hostileText, fc.boolean())
      .map((json): BodyCase => ({ json })),
    fc
      .constantFrom('{', '{"email":', "{'email': 'a@b.co'}", '[1,2', 'undefined', '{"a":1}}', '\u0000', '')
      .map((raw): BodyCase => ({ raw, contentType: 'application/json' })),
    fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml')
      .map((contentType): BodyCase => ({ raw: JSON.stringify(valid), contentType })),
  );
}

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is written as the bytes a
 * careless client would send for it (%ED%A0%80 for U+D800): ill-formed UTF-8 in the address.
 */
export function encodeForUrl(text: string): string {
  return Array.from(text, (part) => {
    if (!/^\p{Cs}$/u.test(part)) return encodeURIComponent(part);
    const unit = part.charCodeAt(0);
    return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
  }).join('');
}
