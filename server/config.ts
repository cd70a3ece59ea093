/**
 * The only reader of process.env. One zod schema turns the environment into `AppConfig`; a bad
 * value stops the process with the list of bad keys (see `readConfigOrExit`).
 *
 * SUPPORT_CONTACTS format: `Name|https://link,Name|https://link` (the people to contact).
 * Both support settings default to empty: the dialogs then say support is not set up yet, rather
 * than pointing at links the operator does not own.
 * CORS_ORIGINS: comma-separated origins, empty = same origin only.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_TURN_PAUSES } from '../domain/answer-ending';
import { strongEnough, WEAK_ADMIN_SECRET } from './admin-secret';
import {
  DEFAULT_MODEL_PRICES,
  DEFAULT_OPENAI_STT_MODEL,
  DEFAULT_OPENAI_TEXT_MODEL,
  DEFAULT_OPENAI_TTS_MODEL,
  DEFAULT_OPENAI_TTS_VOICE,
  DEFAULT_REALTIME_MODEL,
  DEFAULT_TRANSCRIPTION_MODEL,
  modelPriceSchema,
  NOISE_REDUCTION_SETTINGS,
} from './openai-models';

/** The question sets shipped with the product; CATALOGUE_DIR points elsewhere. */
export const SHIPPED_CATALOGUE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../content/question-sets');

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
/** An API base URL, written once without trailing slashes so every caller can append `/path`. */
const baseUrl = httpUrl.transform((url) => url.replace(/\/+$/, ''));

const contactsSchema = z.string().transform((raw, ctx) => {
  const contacts = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [name, url, ...rest] = part.split('|').map((s) => s.trim());
      return { name: name ?? '', url: url ?? '', extra: rest.length };
    });
  const bad = contacts.find((c) => !c.name || c.extra > 0 || !httpUrl.safeParse(c.url).success);
  if (contacts.length === 0 || bad) {
    ctx.addIssue({ code: 'custom', message: 'must be "Name|https://link,Name|https://link"' });
    return z.NEVER;
  }
  return contacts.map(({ name, url }) => ({ name, url }));
});

/** A comma-separated list whose every entry must pass `entry`; `what` names a good entry. */
const listOf = (entry: z.ZodType, what: string) =>
  z.string().transform((raw, ctx) => {
    const entries = raw
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    const bad = entries.find((a) => !entry.safeParse(a).success);
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: `"${bad}" is not ${what}` });
      return z.NEVER;
    }
    return entries;
  });

const originsSchema = listOf(httpUrl, 'an http(s) origin').transform((origins) => origins.map((o) => o.replace(/\/$/, '')));
const addressesSchema = listOf(z.union([z.ipv4(), z.ipv6()]), 'an IP address');
/** Proxies whose X-Forwarded-For is believed: addresses or CIDR ranges. */
const proxiesSchema = listOf(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]), 'an IP address or CIDR range');

/** MODEL_PRICES: a JSON object of model name -> prices, laid over the defaults entry by entry. */
const pricesSchema = z.string().transform((raw, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object, e.g. {"gpt-realtime-2.1":{"audioIn":32,"audioOut":64}}' });
    return z.NEVER;
  }
  const table = z.record(z.string().min(1), modelPriceSchema).safeParse(parsed);
  if (!table.success) {
    const issue = table.error.issues[0];
    ctx.addIssue({
      code: 'custom',
      message: `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'} (keys: textIn, cachedTextIn, audioIn, cachedAudioIn, textOut, audioOut, audioMinute, characters)`,
    });
    return z.NEVER;
  }
  return table.data;
});

export const VOICE_MODES = ['auto', 'realtime', 'pipeline', 'browser'] as const;
export type VoiceModeSetting = (typeof VOICE_MODES)[number];
/** What actually runs, once `auto` is decided. */
export type VoiceMode = Exclude<VoiceModeSetting, 'auto'>;

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

const perMinute = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, { error: 'must be at least 1' }).max(100_000).default(fallback));

/** A timeout: at least 100 ms, at most an hour. */
const milliseconds = (fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(100, { error: 'must be at least 100 (milliseconds)' }).max(3_600_000).default(fallback),
  );

/** Milliseconds from `min` up to 10 s. */
const msUpTo10s = (min: number) => (fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(min, { error: `must be at least ${min} (milliseconds)` })
      .max(10_000, { error: 'must be at most 10000 (milliseconds)' })
      .default(fallback),
  );
/** A pause that ends a spoken answer: 200 ms to 10 s. */
const pauseMs = msUpTo10s(200);
/** A wait that may be none (0) up to 10 s. */
const waitMs = msUpTo10s(0);

const positiveInt = (fallback: number) => z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(fallback));

/** An optional setting: null when not set. */
const orNull = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional()).transform((value) => value ?? null);
const optionalText = orNull(z.string().trim());

/** One setting: the environment variable it is read from, and its schema (whose output is the config value). */
interface Setting<S extends z.ZodType = z.ZodType> {
  env: string;
  schema: S;
}
const setting = <S extends z.ZodType>(env: string, schema: S): Setting<S> => ({ env, schema });
/** Settings nested as the config nests them. */
interface SettingTree {
  [key: string]: Setting | SettingTree;
}
type ConfigOf<T> = T extends Setting<infer S> ? z.output<S> : { [K in keyof T]: ConfigOf<T[K]> };
const isSetting = (node: Setting | SettingTree): node is Setting => node.schema instanceof z.ZodType && typeof node.env === 'string';

/**
 * Every setting, written once: its config key (the property), its environment variable, its
 * schema with the default and the final value (`AppConfig` is inferred from these), and what it
 * means. README's "Settings" table and .env.example list the same variables (config.test.ts).
 */
const SETTINGS = {
  port: setting('PORT', z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000))),
  host: setting('HOST', z.preprocess(emptyToUndefined, z.string().trim().min(1).default('127.0.0.1'))),
  /** Absolute path. */
  dataDir: setting(
    'DATA_DIR',
    z.preprocess(emptyToUndefined, z.string().min(1).default('./data')).transform((dir) => path.resolve(dir)),
  ),
  /** Question-set files read at start-up (docs/question-sets.md); loaded into an empty database. */
  catalogueDir: setting(
    'CATALOGUE_DIR',
    z.preprocess(emptyToUndefined, z.string().min(1).optional()).transform((dir) => (dir ? path.resolve(dir) : SHIPPED_CATALOGUE_DIR)),
  ),
  /** PostgreSQL when set; PGlite in dataDir otherwise. */
  databaseUrl: setting('DATABASE_URL', orNull(z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }))),
  /** null means main.ts generates/loads one in dataDir. */
  adminSecret: setting('ADMIN_SECRET', orNull(z.string().max(512).refine(strongEnough, { error: WEAK_ADMIN_SECRET }))),
  productName: setting('PRODUCT_NAME', z.preprocess(emptyToUndefined, z.string().trim().min(1).max(60).default('Interview'))),
  /** '' when not set. */
  supportChatUrl: setting(
    'SUPPORT_CHAT_URL',
    z.preprocess(emptyToUndefined, httpUrl.optional()).transform((url) => url ?? ''),
  ),
  /** Empty when not set. */
  supportContacts: setting('SUPPORT_CONTACTS', z.preprocess(emptyToUndefined, contactsSchema.default([]))),
  signup: setting('SIGNUP', z.preprocess(emptyToUndefined, z.enum(['open', 'invite']).default('open'))),
  /**
   * `email`: the email in x-user-email is the identity (the specification's design); `link`: a
   * one-time link sent by mail signs a browser in (docs/decisions/026-sign-in-links.md).
   */
  signin: setting('SIGNIN', z.preprocess(emptyToUndefined, z.enum(['email', 'link']).default('email'))),
  /** SIGNIN=link: the SMTP server that sends the sign-in links, e.g. smtp://user:pass@mail.example.com:587. */
  smtpUrl: setting('SMTP_URL', orNull(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }))),
  /** SIGNIN=link: the sender of the sign-in mails, e.g. `Interview <no-reply@example.com>`. */
  mailFrom: setting('MAIL_FROM', orNull(z.string().trim().min(3).max(320))),
  /** SIGNIN=link: the site's address as candidates open it (the links point there); no trailing slash. */
  publicUrl: setting('PUBLIC_URL', orNull(baseUrl)),
  freeSessionLimit: setting('FREE_SESSION_LIMIT', positiveInt(5)),
  proSessionLimit: setting('PRO_SESSION_LIMIT', positiveInt(100)),
  /** The minimum score a rated interview needs, besides answering every question, to complete its level (docs/product-rules.md, Topic tiles). */
  levelPassScore: setting('LEVEL_PASS_SCORE', z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(100).default(0))),
  /** Bytes of interviews and feedback one account may store; a new interview is refused beyond it (README, Security and limits). */
  accountStorageBytes: setting(
    'ACCOUNT_STORAGE_MB',
    positiveInt(20).transform((mb) => mb * 1024 * 1024),
  ),
  corsOrigins: setting('CORS_ORIGINS', z.preprocess(emptyToUndefined, originsSchema.default([]))),
  /** Client addresses exempt from the login/token rate limits (e.g. a load-test client); default none. */
  rateLimitAllowList: setting('RATE_LIMIT_ALLOW', z.preprocess(emptyToUndefined, addressesSchema.default([]))),
  /** Logins per minute per client address. */
  loginRateLimit: setting('LOGIN_RATE_LIMIT', perMinute(30)),
  /** Session tokens minted per minute per client address. */
  tokenRateLimit: setting('TOKEN_RATE_LIMIT', perMinute(60)),
  /** Calls per minute per client address and per account (429 with the wait beyond them). */
  callLimits: {
    rating: { perAddress: setting('RATING_RATE_LIMIT', perMinute(20)), perAccount: setting('RATING_ACCOUNT_RATE_LIMIT', perMinute(6)) },
    turn: { perAddress: setting('TURN_RATE_LIMIT', perMinute(120)), perAccount: setting('TURN_ACCOUNT_RATE_LIMIT', perMinute(30)) },
    abandon: { perAddress: setting('ABANDON_RATE_LIMIT', perMinute(20)), perAccount: setting('ABANDON_ACCOUNT_RATE_LIMIT', perMinute(6)) },
    feedback: {
      perAddress: setting('FEEDBACK_RATE_LIMIT', perMinute(20)),
      perAccount: setting('FEEDBACK_ACCOUNT_RATE_LIMIT', perMinute(6)),
    },
  },
  /** Server timeouts: whole request received, headers received, idle socket, idle keep-alive. */
  timeouts: {
    requestMs: setting('REQUEST_TIMEOUT_MS', milliseconds(30_000)),
    headersMs: setting('HEADERS_TIMEOUT_MS', milliseconds(10_000)),
    connectionMs: setting('CONNECTION_TIMEOUT_MS', milliseconds(300_000)),
    keepAliveMs: setting('KEEP_ALIVE_TIMEOUT_MS', milliseconds(5_000)),
  },
  /** Open connections at most; more are refused by the server. */
  maxConnections: setting(
    'MAX_CONNECTIONS',
    z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, { error: 'must be at least 1' }).max(1_000_000).default(1000)),
  ),
  /** A failed rating is retried in the background this many times... */
  ratingRetryAttempts: setting('RATING_RETRY_ATTEMPTS', z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(20).default(6))),
  /** ...first after this many seconds, each wait twice the one before. */
  ratingRetryDelaySeconds: setting(
    'RATING_RETRY_DELAY_SECONDS',
    z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(86_400).default(60)),
  ),
  /** An open session with no activity for this long (minutes, fractions allowed) was left: the server ends and rates it. */
  sessionIdleMinutes: setting(
    'SESSION_IDLE_MINUTES',
    z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .min(0.01, { error: 'must be at least 0.01' })
        .max(230, { error: 'must be at most 230 (sessions expire at 4 hours)' })
        .default(10),
    ),
  ),
  /**
   * The built-in rater's sentence model (issue 32): `on` reads the model files shipped in
   * server/rater/model/, a path reads them from that folder (an operator's own export,
   * scripts/rater-model/), `off` chooses the word matcher alone. A missing or damaged file stops
   * start-up with a sentence naming it.
   */
  raterModel: setting('RATER_MODEL', z.preprocess(emptyToUndefined, z.string().trim().min(1).default('on'))),
  /** Reverse proxies trusted for the client address (X-Forwarded-For); empty: none. */
  trustProxy: setting('TRUST_PROXY', z.preprocess(emptyToUndefined, proxiesSchema.default([]))),
  /** The server log's level; `info` logs every request, `warn` only problems. */
  logLevel: setting(
    'LOG_LEVEL',
    z.preprocess(emptyToUndefined, z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info')),
  ),
  /** null when switched off. */
  dogImageApi: setting(
    'DOG_IMAGE_API',
    z
      .preprocess(emptyToUndefined, z.union([z.literal('off'), httpUrl]).default('https://dog.ceo/api/breeds/image/random'))
      .transform((url) => (url === 'off' ? null : url)),
  ),
  openaiApiKey: setting('OPENAI_API_KEY', optionalText),
  /** No trailing slash. */
  openaiBaseUrl: setting('OPENAI_BASE_URL', z.preprocess(emptyToUndefined, baseUrl.default('https://api.openai.com/v1'))),
  realtimeModel: setting('REALTIME_MODEL', z.preprocess(emptyToUndefined, z.string().trim().min(1).default(DEFAULT_REALTIME_MODEL))),
  /** Writes the candidate's lines in OpenAI voice sessions. */
  realtimeTranscriptionModel: setting(
    'REALTIME_TRANSCRIPTION_MODEL',
    z.preprocess(emptyToUndefined, z.string().trim().min(1).default(DEFAULT_TRANSCRIPTION_MODEL)),
  ),
  /** The service's input noise reduction (`off`: none). */
  realtimeNoiseReduction: setting(
    'REALTIME_NOISE_REDUCTION',
    z.preprocess(
      emptyToUndefined,
      z.enum(NOISE_REDUCTION_SETTINGS, { error: `must be one of ${NOISE_REDUCTION_SETTINGS.join(', ')}` }).default('far_field'),
    ),
  ),
  /** A realtime call is asked to close, then hung up, at this length (minutes, may be fractional). */
  maxSessionMinutes: setting(
    'MAX_SESSION_MINUTES',
    z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .min(0.05, { error: 'must be at least 0.05' })
        .max(60, { error: 'must be at most 60 (the service ends a call at 60 minutes)' })
        .default(30),
    ),
  ),
  llmBaseUrl: setting('LLM_BASE_URL', orNull(baseUrl)),
  llmApiKey: setting('LLM_API_KEY', optionalText),
  llmModel: setting('LLM_MODEL', optionalText),
  /** VOICE_MODE as set; `resolveVoiceMode` decides `auto`. */
  voiceModeSetting: setting(
    'VOICE_MODE',
    z.preprocess(emptyToUndefined, z.enum(VOICE_MODES, { error: `must be one of ${VOICE_MODES.join(', ')}` }).default('auto')),
  ),
  /** Speech-pipeline endpoints (no trailing slash); `resolveSpeechSettings` fills OpenAI defaults. */
  sttBaseUrl: setting('STT_BASE_URL', orNull(baseUrl)),
  sttModel: setting('STT_MODEL', optionalText),
  sttApiKey: setting('STT_API_KEY', optionalText),
  ttsBaseUrl: setting('TTS_BASE_URL', orNull(baseUrl)),
  ttsModel: setting('TTS_MODEL', optionalText),
  ttsVoice: setting('TTS_VOICE', optionalText),
  ttsApiKey: setting('TTS_API_KEY', optionalText),
  /** USD prices per model: DEFAULT_MODEL_PRICES (openai-models.ts) with MODEL_PRICES laid over them. */
  modelPrices: setting(
    'MODEL_PRICES',
    z.preprocess(emptyToUndefined, pricesSchema.default({})).transform((prices) => ({ ...DEFAULT_MODEL_PRICES, ...prices })),
  ),
  // Budgets of one session (README, Security and limits).
  /** Overall deadline of one speech-to-text call or one text-to-speech stream, first byte to last (seconds). */
  upstreamDeadlineSeconds: setting(
    'UPSTREAM_DEADLINE_SECONDS',
    z.preprocess(emptyToUndefined, z.coerce.number().min(0.5, { error: 'must be at least 0.5' }).max(600).default(60)),
  ),
  /** Speech pipeline, per session: speech-to-text calls at most (a spoken answer is written down in pieces, one at each pause), and their seconds of audio at most. */
  sessionSpeechAnswers: setting(
    'SESSION_SPEECH_ANSWERS',
    z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, { error: 'must be at least 1' }).max(1000).default(200)),
  ),
  sessionSpeechSeconds: setting(
    'SESSION_SPEECH_SECONDS',
    z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, { error: 'must be at least 1' }).max(36_000).default(900)),
  ),
  /** Longest single spoken answer (seconds); longer ones are refused before speech-to-text. */
  maxAnswerSeconds: setting(
    'MAX_ANSWER_SECONDS',
    z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .int()
        .min(1, { error: 'must be at least 1' })
        .max(300, { error: "must be at most 300 (an answer's upload is at most 10 MiB)" })
        .default(120),
    ),
  ),
  // End of a spoken answer (docs/product-rules.md, End of a spoken answer; domain/answer-ending.ts):
  // the pause that ends the candidate's turn, by how the answer so far sounds. Defaults measured by
  // `npm run bench -- --only=speech` (bench/results.md, Speech-pipeline turns).
  turnPauses: {
    /** The speech pipeline hands over each piece of an answer to be written down after a pause this long. */
    pieceMs: setting('TURN_PAUSE_PIECE_MS', pauseMs(DEFAULT_TURN_PAUSES.pieceMs)),
    /** After an answer that sounds finished (a closed sentence, or words that answer the question). */
    finishedMs: setting('TURN_PAUSE_FINISHED_MS', pauseMs(DEFAULT_TURN_PAUSES.finishedMs)),
    /** After words that cannot tell. */
    unsureMs: setting('TURN_PAUSE_UNSURE_MS', pauseMs(DEFAULT_TURN_PAUSES.unsureMs)),
    /** After a filler ("um"), a word that leads on ("and", "because", "the") or a sentence cut off. */
    unfinishedMs: setting('TURN_PAUSE_UNFINISHED_MS', pauseMs(DEFAULT_TURN_PAUSES.unfinishedMs)),
    /** The interviewer's voice, paused by a sound that was not speech, stays paused this long for the candidate to go on. */
    heldMs: setting('TURN_PAUSE_HELD_MS', waitMs(DEFAULT_TURN_PAUSES.heldMs)),
  },
  /** The interviewer's audio clips one session holds at once (the oldest of the same session make way). */
  sessionAudioClips: setting(
    'SESSION_AUDIO_CLIPS',
    z.preprocess(emptyToUndefined, z.coerce.number().int().min(4, { error: 'must be at least 4' }).max(500).default(40)),
  ),
  /** The question-set editor's language-model calls (suggested phrasings, tried answers), per hour across all admins; 0 turns them off. */
  editorLlmCallsPerHour: setting(
    'EDITOR_LLM_CALLS_PER_HOUR',
    z.preprocess(emptyToUndefined, z.coerce.number().int().min(0, { error: 'must be 0 or more' }).max(10_000).default(60)),
  ),
  /** The characters those calls may send to the language model per hour across all admins (each request's JSON body). */
  editorLlmPromptCharsPerHour: setting(
    'EDITOR_LLM_PROMPT_CHARS_PER_HOUR',
    z.preprocess(
      emptyToUndefined,
      z.coerce.number().int().min(1000, { error: 'must be at least 1000' }).max(100_000_000).default(1_500_000),
    ),
  ),
  /**
   * On SIGTERM/SIGINT: seconds the server drains before it closes (GET /healthz answers 503
   * draining so a load balancer moves away, requests are still served); 0 closes at once.
   */
  shutdownDrainSeconds: setting(
    'SHUTDOWN_DRAIN_SECONDS',
    z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(120, { error: 'must be at most 120' }).default(0)),
  ),
} satisfies SettingTree;

/** The parsed settings, as the server uses them (inferred from SETTINGS). */
export type AppConfig = ConfigOf<typeof SETTINGS>;
/** The candidate calls with their own per-address and per-account limits. */
export type LimitedCall = keyof AppConfig['callLimits'];

function settingsIn(tree: SettingTree): Setting[] {
  return Object.values(tree).flatMap((node) => (isSetting(node) ? [node] : settingsIn(node)));
}
/** The environment's schema: one key per variable. */
export const envSchema = z.object(Object.fromEntries(settingsIn(SETTINGS).map((s) => [s.env, s.schema])));

/** Each setting's value from the parsed environment, nested as SETTINGS is. */
function configFrom(tree: SettingTree, parsed: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(tree).map(([key, node]) => [key, isSetting(node) ? parsed[node.env] : configFrom(node, parsed)]),
  );
}

export interface SpeechEndpoint {
  /** Up to `/v1`, no trailing slash. */
  baseUrl: string;
  model: string;
  apiKey: string | null;
}
export interface SpeechSettings {
  stt: SpeechEndpoint;
  tts: SpeechEndpoint & { voice: string };
}

type VoiceInputs = Pick<
  AppConfig,
  | 'voiceModeSetting'
  | 'openaiApiKey'
  | 'openaiBaseUrl'
  | 'sttBaseUrl'
  | 'sttModel'
  | 'sttApiKey'
  | 'ttsBaseUrl'
  | 'ttsModel'
  | 'ttsVoice'
  | 'ttsApiKey'
>;

/**
 * `auto`: realtime with an OpenAI key, else the pipeline when both speech servers are named,
 * else browser speech (docs/speech-pipeline-mode.md).
 */
export function resolveVoiceMode(config: VoiceInputs): VoiceMode {
  if (config.voiceModeSetting !== 'auto') return config.voiceModeSetting;
  if (config.openaiApiKey) return 'realtime';
  if (config.sttBaseUrl && config.ttsBaseUrl) return 'pipeline';
  return 'browser';
}

/**
 * The STT and TTS endpoints of the pipeline, or what is missing. A server we are not told about
 * falls back to OpenAI (with its key and current models) only when OPENAI_API_KEY is set; the
 * OpenAI key is never sent to a server named in STT_/TTS_BASE_URL.
 */
export function resolveSpeechSettings(config: VoiceInputs): SpeechSettings | { missing: string[] } {
  const missing: string[] = [];
  const openai = config.openaiApiKey;
  const endpoint = (kind: 'STT' | 'TTS', baseUrl: string | null, model: string | null, apiKey: string | null, openaiModel: string) => {
    if (baseUrl) {
      if (!model) missing.push(`${kind}_MODEL (the model ${kind}_BASE_URL serves)`);
      return { baseUrl, model: model ?? '', apiKey };
    }
    if (!openai) missing.push(`${kind}_BASE_URL (or OPENAI_API_KEY to use OpenAI)`);
    return { baseUrl: config.openaiBaseUrl, model: model ?? openaiModel, apiKey: apiKey ?? openai };
  };
  const stt = endpoint('STT', config.sttBaseUrl, config.sttModel, config.sttApiKey, DEFAULT_OPENAI_STT_MODEL);
  const tts = endpoint('TTS', config.ttsBaseUrl, config.ttsModel, config.ttsApiKey, DEFAULT_OPENAI_TTS_MODEL);
  const voice = config.ttsVoice ?? (config.ttsBaseUrl ? null : DEFAULT_OPENAI_TTS_VOICE);
  if (!voice && config.ttsBaseUrl) missing.push('TTS_VOICE (a voice TTS_BASE_URL knows)');
  if (missing.length > 0) return { missing };
  return { stt, tts: { ...tts, voice: voice ?? DEFAULT_OPENAI_TTS_VOICE } };
}

/** Start-up problems of the voice settings: a bad combination names what is missing. */
function voiceProblems(config: VoiceInputs): string[] {
  const mode = resolveVoiceMode(config);
  if (mode === 'realtime' && !config.openaiApiKey) return ['VOICE_MODE: realtime needs OPENAI_API_KEY'];
  const halfPipeline =
    config.voiceModeSetting === 'auto' && !config.openaiApiKey && Boolean(config.sttBaseUrl) !== Boolean(config.ttsBaseUrl);
  if (mode !== 'pipeline' && !halfPipeline) return [];
  const speech = resolveSpeechSettings(config);
  if (!('missing' in speech)) return [];
  return speech.missing.map((what) => `VOICE_MODE: the speech pipeline needs ${what}`);
}

/** SIGNIN=link needs a way to send mail and the address its links point at. */
function signinProblems(config: Pick<AppConfig, 'signin' | 'smtpUrl' | 'mailFrom' | 'publicUrl'>): string[] {
  if (config.signin !== 'link') return [];
  const needs = [
    ['SMTP_URL', config.smtpUrl, 'the SMTP server that sends the sign-in links'],
    ['MAIL_FROM', config.mailFrom, 'the sender of the sign-in mails'],
    ['PUBLIC_URL', config.publicUrl, 'the address the links point at'],
  ] as const;
  return needs.filter(([, value]) => !value).map(([key, , what]) => `SIGNIN: link needs ${key} (${what})`);
}

/** Addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Pure: parses an environment-like object. Throws ConfigError naming every bad key. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new ConfigError(problems);
  }
  // The schema of each variable makes its value: the object has exactly AppConfig's shape.
  const config = configFrom(SETTINGS, parsed.data) as AppConfig;
  // Node refuses a headers timeout longer than the request timeout.
  if (config.timeouts.headersMs > config.timeouts.requestMs) {
    throw new ConfigError(['HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS']);
  }
  const { pieceMs, finishedMs, unsureMs, unfinishedMs } = config.turnPauses;
  if (finishedMs > unsureMs || unsureMs > unfinishedMs) {
    throw new ConfigError(['TURN_PAUSE_UNSURE_MS: must lie between TURN_PAUSE_FINISHED_MS and TURN_PAUSE_UNFINISHED_MS']);
  }
  if (pieceMs > finishedMs) throw new ConfigError(['TURN_PAUSE_PIECE_MS: must not be longer than TURN_PAUSE_FINISHED_MS']);
  const problems = [...voiceProblems(config), ...signinProblems(config)];
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Settings that work but leave something unfinished; the server prints them at start-up. */
export function configWarnings(config: AppConfig): string[] {
  const warnings: string[] = [];
  if (config.signin === 'email' && !isLoopbackHost(config.host)) {
    warnings.push(
      `SIGNIN=email on ${config.host}: anyone who can reach this server and knows a candidate's email can read their interviews; on a public site set SIGNIN=link (README, Who can read what).`,
    );
  }
  if (!config.supportChatUrl && config.supportContacts.length === 0) {
    warnings.push(
      'Support is not set up: SUPPORT_CHAT_URL and SUPPORT_CONTACTS are empty, so the support and upgrade dialogs say support is not set up yet.',
    );
  }
  for (const model of unpricedModels(config)) {
    warnings.push(
      `No price for the model ${model}: its usage is recorded but adds nothing to the estimated session cost (set MODEL_PRICES).`,
    );
  }
  return warnings;
}

/** Models the server bills through that the price table does not name (OpenAI's own only: a local server costs nothing). */
function unpricedModels(config: AppConfig): string[] {
  const mode = resolveVoiceMode(config);
  const models: string[] = [];
  if (mode === 'realtime') models.push(config.realtimeModel, config.realtimeTranscriptionModel);
  if (mode === 'pipeline') {
    const speech = resolveSpeechSettings(config);
    if (!('missing' in speech)) {
      if (speech.stt.baseUrl === config.openaiBaseUrl) models.push(speech.stt.model);
      if (speech.tts.baseUrl === config.openaiBaseUrl) models.push(speech.tts.model);
    }
  }
  // The language model (providers/upstream/llm-client.ts resolveLlmSettings): OpenAI's when only OPENAI_API_KEY is set.
  const llmOnOpenAi = config.llmBaseUrl ? config.llmBaseUrl === config.openaiBaseUrl : config.openaiApiKey !== null;
  if (llmOnOpenAi) models.push(config.llmModel ?? DEFAULT_OPENAI_TEXT_MODEL);
  return [...new Set(models)].filter((model) => !Object.hasOwn(config.modelPrices, model));
}

/** The VITE_* build settings of the environment: the web build reads them (scripts/web-build.ts). */
export function webBuildEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('VITE_')));
}

/** For entry points: parse process.env or print the bad keys and exit 1. */
export function readConfigOrExit(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
