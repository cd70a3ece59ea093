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
import type { AudioModel } from 'openai/resources/audio/audio';
import type { SpeechModel } from 'openai/resources/audio/speech';
import type { AudioTranscription, NoiseReductionType } from 'openai/resources/realtime/realtime';
import { z } from 'zod';

/** The question sets shipped with the product; CATALOGUE_DIR points elsewhere. */
export const SHIPPED_CATALOGUE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../content/question-sets');

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const optionalText = z.preprocess(emptyToUndefined, z.string().trim().optional());
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
/** An API base URL, written once without trailing slashes so every caller can append `/path`. */
const baseUrl = httpUrl.transform((url) => url.replace(/\/+$/, ''));

const contactsSchema = z
  .string()
  .transform((raw, ctx) => {
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

/**
 * Realtime defaults, typed with the official `openai` package's unions (a renamed value is a
 * compile error) and checked against its deprecation notes by server/providers/realtime-defaults.test.ts.
 * `whisper-1` and the `gpt-4o-*-transcribe` family are marked deprecated there (shutdown 2027-02-26).
 */
export const DEFAULT_TRANSCRIPTION_MODEL = 'gpt-transcribe' satisfies NonNullable<AudioTranscription['model']>;
/** far_field: laptop and desk microphones, the usual way candidates practise; near_field is for headsets. */
export const NOISE_REDUCTION_SETTINGS = ['far_field', 'near_field', 'off'] as const satisfies readonly (NoiseReductionType | 'off')[];
export type NoiseReductionSetting = (typeof NOISE_REDUCTION_SETTINGS)[number];

/**
 * Speech-pipeline defaults when OpenAI hosts STT and TTS, checked against the official `openai`
 * package (server/providers/speech-defaults.test.ts): `gpt-transcribe` is its current
 * transcription model; every `/audio/speech` model is marked deprecated there (shutdown announced
 * for 2027-01-06, docs/speech-pipeline-mode.md), so TTS uses the newest alias until a successor is listed.
 */
export const DEFAULT_OPENAI_STT_MODEL: AudioModel = 'gpt-transcribe';
export const DEFAULT_OPENAI_TTS_MODEL: SpeechModel = 'gpt-4o-mini-tts';
export const DEFAULT_OPENAI_TTS_VOICE = 'marin';

/**
 * What one model costs, in USD: token prices per 1M tokens, `audioMinute` per minute of audio
 * transcribed, `characters` per 1M characters synthesised. A session's estimated cost is its usage
 * times these (docs/decisions/012-session-telemetry.md); a model missing here adds nothing.
 */
export const modelPriceSchema = z
  .object({
    textIn: z.number().nonnegative(),
    cachedTextIn: z.number().nonnegative(),
    audioIn: z.number().nonnegative(),
    cachedAudioIn: z.number().nonnegative(),
    textOut: z.number().nonnegative(),
    audioOut: z.number().nonnegative(),
    audioMinute: z.number().nonnegative(),
    characters: z.number().nonnegative(),
  })
  .partial()
  .strict();
export type ModelPrice = z.infer<typeof modelPriceSchema>;
export type ModelPrices = Record<string, ModelPrice>;

/**
 * OpenAI's list prices as published on its model pages in late 2026 (README, "Session telemetry
 * and cost"). `gpt-transcribe` had no published price when this was written: it is assumed to cost
 * what `gpt-4o-mini-transcribe` does. `gpt-4o-mini-tts` bills tokens; $15 per 1M characters is its
 * $0.015 per minute of speech at about 1,000 characters a minute. MODEL_PRICES overrides any entry.
 */
/** The interviewer's and the AI rater's model on OpenAI when only OPENAI_API_KEY is set: cheap, fast, tools and JSON schema. */
export const DEFAULT_OPENAI_TEXT_MODEL = 'gpt-4.1-mini';

export const DEFAULT_MODEL_PRICES: ModelPrices = {
  'gpt-realtime-2.1': { textIn: 4, cachedTextIn: 0.4, audioIn: 32, cachedAudioIn: 0.4, textOut: 24, audioOut: 64 },
  'gpt-realtime-2': { textIn: 4, cachedTextIn: 0.4, audioIn: 32, cachedAudioIn: 0.4, textOut: 24, audioOut: 64 },
  'gpt-realtime-1.5': { textIn: 4, cachedTextIn: 0.4, audioIn: 32, cachedAudioIn: 0.4, textOut: 16, audioOut: 64 },
  'gpt-realtime-2.1-mini': { textIn: 0.6, cachedTextIn: 0.06, audioIn: 10, cachedAudioIn: 0.3, textOut: 2.4, audioOut: 20 },
  'gpt-transcribe': { audioIn: 1.25, textIn: 1.25, textOut: 5, audioMinute: 0.003 },
  'gpt-4o-mini-transcribe': { audioIn: 1.25, textIn: 1.25, textOut: 5, audioMinute: 0.003 },
  'gpt-4o-transcribe': { audioIn: 2.5, textIn: 2.5, textOut: 10, audioMinute: 0.006 },
  'whisper-1': { audioMinute: 0.006 },
  'gpt-4o-mini-tts': { characters: 15 },
  'tts-1': { characters: 15 },
  'tts-1-hd': { characters: 30 },
  // Text models for the interviewer and the AI rater (DEFAULT_OPENAI_TEXT_MODEL is gpt-4.1-mini).
  'gpt-4.1': { textIn: 2, cachedTextIn: 0.5, textOut: 8 },
  'gpt-4.1-mini': { textIn: 0.4, cachedTextIn: 0.1, textOut: 1.6 },
  'gpt-4.1-nano': { textIn: 0.1, cachedTextIn: 0.025, textOut: 0.4 },
  'gpt-4o-mini': { textIn: 0.15, cachedTextIn: 0.075, textOut: 0.6 },
};

/** MODEL_PRICES: a JSON object of model name -> prices, laid over the defaults entry by entry. */
const pricesSchema = z
  .string()
  .transform((raw, ctx) => {
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
      ctx.addIssue({ code: 'custom', message: `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'} (keys: textIn, cachedTextIn, audioIn, cachedAudioIn, textOut, audioOut, audioMinute, characters)` });
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

const positiveInt = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(fallback));

export const envSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().trim().min(1).default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().min(1).default('./data')),
  CATALOGUE_DIR: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
  ),
  ADMIN_SECRET: z.preprocess(emptyToUndefined, z.string().min(12, { error: 'must be at least 12 characters' }).max(512).optional()),
  PRODUCT_NAME: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(60).default('Interview')),
  SUPPORT_CHAT_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  SUPPORT_CONTACTS: z.preprocess(emptyToUndefined, contactsSchema.default([])),
  SIGNUP: z.preprocess(emptyToUndefined, z.enum(['open', 'invite']).default('open')),
  FREE_SESSION_LIMIT: positiveInt(5),
  PRO_SESSION_LIMIT: positiveInt(100),
  ACCOUNT_STORAGE_MB: positiveInt(20),
  CORS_ORIGINS: z.preprocess(emptyToUndefined, originsSchema.default([])),
  RATE_LIMIT_ALLOW: z.preprocess(emptyToUndefined, addressesSchema.default([])),
  LOGIN_RATE_LIMIT: perMinute(30),
  TOKEN_RATE_LIMIT: perMinute(60),
  RATING_RATE_LIMIT: perMinute(20),
  RATING_ACCOUNT_RATE_LIMIT: perMinute(6),
  TURN_RATE_LIMIT: perMinute(120),
  TURN_ACCOUNT_RATE_LIMIT: perMinute(30),
  ABANDON_RATE_LIMIT: perMinute(20),
  ABANDON_ACCOUNT_RATE_LIMIT: perMinute(6),
  FEEDBACK_RATE_LIMIT: perMinute(20),
  FEEDBACK_ACCOUNT_RATE_LIMIT: perMinute(6),
  REQUEST_TIMEOUT_MS: milliseconds(30_000),
  HEADERS_TIMEOUT_MS: milliseconds(10_000),
  CONNECTION_TIMEOUT_MS: milliseconds(300_000),
  KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000),
  MAX_CONNECTIONS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, { error: 'must be at least 1' }).max(1_000_000).default(1000)),
  RATING_RETRY_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(20).default(6)),
  RATING_RETRY_DELAY_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(86_400).default(60)),
  SESSION_IDLE_MINUTES: z.preprocess(
    emptyToUndefined,
    z.coerce.number().min(0.01, { error: 'must be at least 0.01' }).max(230, { error: 'must be at most 230 (sessions expire at 4 hours)' }).default(10),
  ),
  TRUST_PROXY: z.preprocess(emptyToUndefined, proxiesSchema.default([])),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info')),
  DOG_IMAGE_API: z.preprocess(
    emptyToUndefined,
    z.union([z.literal('off'), httpUrl]).default('https://dog.ceo/api/breeds/image/random'),
  ),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: z.preprocess(emptyToUndefined, baseUrl.default('https://api.openai.com/v1')),
  REALTIME_MODEL: z.preprocess(emptyToUndefined, z.string().trim().min(1).default('gpt-realtime-2.1')),
  REALTIME_TRANSCRIPTION_MODEL: z.preprocess(emptyToUndefined, z.string().trim().min(1).default(DEFAULT_TRANSCRIPTION_MODEL)),
  REALTIME_NOISE_REDUCTION: z.preprocess(
    emptyToUndefined,
    z.enum(NOISE_REDUCTION_SETTINGS, { error: `must be one of ${NOISE_REDUCTION_SETTINGS.join(', ')}` }).default('far_field'),
  ),
  MAX_SESSION_MINUTES: z.preprocess(
    emptyToUndefined,
    z.coerce.number().min(0.05, { error: 'must be at least 0.05' }).max(60, { error: 'must be at most 60 (the service ends a call at 60 minutes)' }).default(30),
  ),
  LLM_BASE_URL: z.preprocess(emptyToUndefined, baseUrl.optional()),
  LLM_API_KEY: optionalText,
  LLM_MODEL: optionalText,
  VOICE_MODE: z.preprocess(emptyToUndefined, z.enum(VOICE_MODES, { error: `must be one of ${VOICE_MODES.join(', ')}` }).default('auto')),
  STT_BASE_URL: z.preprocess(emptyToUndefined, baseUrl.optional()),
  STT_MODEL: optionalText,
  STT_API_KEY: optionalText,
  TTS_BASE_URL: z.preprocess(emptyToUndefined, baseUrl.optional()),
  TTS_MODEL: optionalText,
  TTS_VOICE: optionalText,
  TTS_API_KEY: optionalText,
  MODEL_PRICES: z.preprocess(emptyToUndefined, pricesSchema.default({})),
  // Budgets of one session (README, Security and limits).
  UPSTREAM_DEADLINE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(0.5, { error: 'must be at least 0.5' }).max(600).default(60)),
  SESSION_SPEECH_ANSWERS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, { error: 'must be at least 1' }).max(1000).default(60)),
  SESSION_SPEECH_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, { error: 'must be at least 1' }).max(36_000).default(900)),
  MAX_ANSWER_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, { error: 'must be at least 1' }).max(300, { error: 'must be at most 300 (an answer\'s upload is at most 10 MiB)' }).default(120)),
  SESSION_AUDIO_CLIPS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(4, { error: 'must be at least 4' }).max(500).default(40)),
});

/** The candidate calls with their own per-address and per-account limits. */
export type LimitedCall = 'rating' | 'turn' | 'abandon' | 'feedback';

export interface AppConfig {
  port: number;
  host: string;
  /** Absolute path. */
  dataDir: string;
  /** Question-set files read at start-up (docs/question-sets.md); loaded into an empty database. */
  catalogueDir: string;
  /** PostgreSQL when set; PGlite in dataDir otherwise. */
  databaseUrl: string | null;
  /** From ADMIN_SECRET; null means main.ts generates/loads one in dataDir. */
  adminSecret: string | null;
  productName: string;
  /** '' when not set. */
  supportChatUrl: string;
  /** Empty when not set. */
  supportContacts: Array<{ name: string; url: string }>;
  signup: 'open' | 'invite';
  freeSessionLimit: number;
  proSessionLimit: number;
  /** Bytes of interviews and feedback one account may store; a new interview is refused beyond it (README, Security and limits). */
  accountStorageBytes: number;
  corsOrigins: string[];
  /** Client addresses exempt from the login/token rate limits (e.g. a load-test client); default none. */
  rateLimitAllowList: string[];
  /** Logins per minute per client address. */
  loginRateLimit: number;
  /** Session tokens minted per minute per client address. */
  tokenRateLimit: number;
  /** Calls per minute per client address and per account (429 with the wait beyond them). */
  callLimits: Record<LimitedCall, { perAddress: number; perAccount: number }>;
  /** Server timeouts: whole request received, headers received, idle socket, idle keep-alive. */
  timeouts: { requestMs: number; headersMs: number; connectionMs: number; keepAliveMs: number };
  /** Open connections at most; more are refused by the server. */
  maxConnections: number;
  /** A failed rating is retried in the background this many times... */
  ratingRetryAttempts: number;
  /** ...first after this many seconds, each wait twice the one before. */
  ratingRetryDelaySeconds: number;
  /** An open session with no activity for this long (minutes, fractions allowed) was left: the server ends and rates it. */
  sessionIdleMinutes: number;
  /** Reverse proxies trusted for the client address (X-Forwarded-For); empty: none. */
  trustProxy: string[];
  /** The server log's level; `info` logs every request, `warn` only problems. */
  logLevel: (typeof LOG_LEVELS)[number];
  /** null when switched off. */
  dogImageApi: string | null;
  openaiApiKey: string | null;
  /** No trailing slash. */
  openaiBaseUrl: string;
  realtimeModel: string;
  /** Writes the candidate's lines in OpenAI voice sessions. */
  realtimeTranscriptionModel: string;
  /** The service's input noise reduction (`off`: none). */
  realtimeNoiseReduction: NoiseReductionSetting;
  /** A realtime call is asked to close, then hung up, at this length (minutes, may be fractional). */
  maxSessionMinutes: number;
  llmBaseUrl: string | null;
  llmApiKey: string | null;
  llmModel: string | null;
  /** VOICE_MODE as set; `resolveVoiceMode` decides `auto`. */
  voiceModeSetting: VoiceModeSetting;
  /** Speech-pipeline endpoints (no trailing slash); `resolveSpeechSettings` fills OpenAI defaults. */
  sttBaseUrl: string | null;
  sttModel: string | null;
  sttApiKey: string | null;
  ttsBaseUrl: string | null;
  ttsModel: string | null;
  ttsVoice: string | null;
  ttsApiKey: string | null;
  /** USD prices per model: DEFAULT_MODEL_PRICES with MODEL_PRICES laid over them. */
  modelPrices: ModelPrices;
  /** Overall deadline of one speech-to-text call or one text-to-speech stream, first byte to last (seconds). */
  upstreamDeadlineSeconds: number;
  /** Speech pipeline, per session: spoken answers transcribed at most, and their seconds of audio at most. */
  sessionSpeechAnswers: number;
  sessionSpeechSeconds: number;
  /** Longest single spoken answer (seconds); longer ones are refused before speech-to-text. */
  maxAnswerSeconds: number;
  /** The interviewer's audio clips one session holds at once (the oldest of the same session make way). */
  sessionAudioClips: number;
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
  'voiceModeSetting' | 'openaiApiKey' | 'openaiBaseUrl' | 'sttBaseUrl' | 'sttModel' | 'sttApiKey' | 'ttsBaseUrl' | 'ttsModel' | 'ttsVoice' | 'ttsApiKey'
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
  const halfPipeline = config.voiceModeSetting === 'auto' && !config.openaiApiKey && Boolean(config.sttBaseUrl) !== Boolean(config.ttsBaseUrl);
  if (mode !== 'pipeline' && !halfPipeline) return [];
  const speech = resolveSpeechSettings(config);
  if (!('missing' in speech)) return [];
  return speech.missing.map((what) => `VOICE_MODE: the speech pipeline needs ${what}`);
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
  const e = parsed.data;
  // Node refuses a headers timeout longer than the request timeout.
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new ConfigError(['HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS']);
  }
  const config: AppConfig = {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    catalogueDir: e.CATALOGUE_DIR ? path.resolve(e.CATALOGUE_DIR) : SHIPPED_CATALOGUE_DIR,
    databaseUrl: e.DATABASE_URL ?? null,
    adminSecret: e.ADMIN_SECRET ?? null,
    productName: e.PRODUCT_NAME,
    supportChatUrl: e.SUPPORT_CHAT_URL ?? '',
    supportContacts: e.SUPPORT_CONTACTS,
    signup: e.SIGNUP,
    freeSessionLimit: e.FREE_SESSION_LIMIT,
    proSessionLimit: e.PRO_SESSION_LIMIT,
    accountStorageBytes: e.ACCOUNT_STORAGE_MB * 1024 * 1024,
    corsOrigins: e.CORS_ORIGINS,
    rateLimitAllowList: e.RATE_LIMIT_ALLOW,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    tokenRateLimit: e.TOKEN_RATE_LIMIT,
    callLimits: {
      rating: { perAddress: e.RATING_RATE_LIMIT, perAccount: e.RATING_ACCOUNT_RATE_LIMIT },
      turn: { perAddress: e.TURN_RATE_LIMIT, perAccount: e.TURN_ACCOUNT_RATE_LIMIT },
      abandon: { perAddress: e.ABANDON_RATE_LIMIT, perAccount: e.ABANDON_ACCOUNT_RATE_LIMIT },
      feedback: { perAddress: e.FEEDBACK_RATE_LIMIT, perAccount: e.FEEDBACK_ACCOUNT_RATE_LIMIT },
    },
    timeouts: {
      requestMs: e.REQUEST_TIMEOUT_MS,
      headersMs: e.HEADERS_TIMEOUT_MS,
      connectionMs: e.CONNECTION_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
    maxConnections: e.MAX_CONNECTIONS,
    ratingRetryAttempts: e.RATING_RETRY_ATTEMPTS,
    ratingRetryDelaySeconds: e.RATING_RETRY_DELAY_SECONDS,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    dogImageApi: e.DOG_IMAGE_API === 'off' ? null : e.DOG_IMAGE_API,
    openaiApiKey: e.OPENAI_API_KEY ?? null,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    realtimeModel: e.REALTIME_MODEL,
    realtimeTranscriptionModel: e.REALTIME_TRANSCRIPTION_MODEL,
    realtimeNoiseReduction: e.REALTIME_NOISE_REDUCTION,
    maxSessionMinutes: e.MAX_SESSION_MINUTES,
    llmBaseUrl: e.LLM_BASE_URL ?? null,
    llmApiKey: e.LLM_API_KEY ?? null,
    llmModel: e.LLM_MODEL ?? null,
    voiceModeSetting: e.VOICE_MODE,
    sttBaseUrl: e.STT_BASE_URL ?? null,
    sttModel: e.STT_MODEL ?? null,
    sttApiKey: e.STT_API_KEY ?? null,
    ttsBaseUrl: e.TTS_BASE_URL ?? null,
    ttsModel: e.TTS_MODEL ?? null,
    ttsVoice: e.TTS_VOICE ?? null,
    ttsApiKey: e.TTS_API_KEY ?? null,
    modelPrices: { ...DEFAULT_MODEL_PRICES, ...e.MODEL_PRICES },
    upstreamDeadlineSeconds: e.UPSTREAM_DEADLINE_SECONDS,
    sessionSpeechAnswers: e.SESSION_SPEECH_ANSWERS,
    sessionSpeechSeconds: e.SESSION_SPEECH_SECONDS,
    maxAnswerSeconds: e.MAX_ANSWER_SECONDS,
    sessionAudioClips: e.SESSION_AUDIO_CLIPS,
  };
  const problems = voiceProblems(config);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Settings that work but leave something unfinished; the server prints them at start-up. */
export function configWarnings(config: AppConfig): string[] {
  const warnings: string[] = [];
  if (!config.supportChatUrl && config.supportContacts.length === 0) {
    warnings.push('Support is not set up: SUPPORT_CHAT_URL and SUPPORT_CONTACTS are empty, so the support and upgrade dialogs say support is not set up yet.');
  }
  for (const model of unpricedModels(config)) {
    warnings.push(`No price for the model ${model}: its usage is recorded but adds nothing to the estimated session cost (set MODEL_PRICES).`);
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
  // The language model (providers/llm-client.ts resolveLlmSettings): OpenAI's when only OPENAI_API_KEY is set.
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

/** Test helpers and scripts need some environment values; only this file may read them. */
export function readTestEnv(): { testDatabaseUrl: string; ci: boolean } {
  return {
    testDatabaseUrl: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    ci: process.env.CI === 'true' || process.env.CI === '1',
  };
}

/** PATH and HOME only: what a child server process needs, without this shell's settings. */
export function minimalChildEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
}
