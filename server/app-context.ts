/** What routes and services share: the parsed config, the database, the AI providers, the limits. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { Db } from './db/client';
import type { SpeechClients } from './providers/upstream/speech-clients';
import type { Interviewer, PhrasingDrafter, Rater, VoiceProvider } from './providers/types';
import type { ClipStore } from './services/speech';
import type { RealtimeCallsClient } from './providers/upstream/realtime-calls-client';
import type { CallSupervisor } from './services/calls';
import type { WindowCounter } from './services/window-counter';
import type { Mailer } from './providers/upstream/mailer';
import type { RateResponse } from '../contract';
import type { BuiltInRater } from './rater';

/** The speech pipeline's upstream clients (the interviewer's audio in flight is on the AppContext: `clips`). */
export interface SpeechPipeline {
  clients: SpeechClients;
}

export interface Providers {
  voice: VoiceProvider;
  rater: Rater;
  interviewer: Interviewer;
  /** Set in the speech-pipeline voice mode only. */
  speech?: SpeechPipeline;
  /** Set in the OpenAI realtime voice mode only: the server's half of each call. */
  realtime?: RealtimeCallsClient;
  /** Set when a language model is configured: the question-set editor's "Suggest phrasings". */
  phrasings?: PhrasingDrafter;
}

/**
 * Where this process stands: `running`; `draining` after SIGTERM (GET /healthz answers 503, no new
 * background work; requests still served); `closing` (new requests refused, in flight finish).
 */
export interface Lifecycle {
  state: 'running' | 'draining' | 'closing';
  /**
   * Told to stop (SIGTERM, SIGINT: `drain`), as a server of a group is: at close its OpenAI calls
   * are listened to until another server claimed them. A close without it lets them go at once.
   */
  stopping?: boolean;
}

/** AppConfig after start-up resolved the admin secret (ADMIN_SECRET or the generated one). */
export type ResolvedConfig = AppConfig & { adminSecret: string };

export interface AppContext {
  config: ResolvedConfig;
  db: Db;
  providers: Providers;
  log: FastifyBaseLogger;
  /** Rate-limit and admin-throttle counters: shared in PostgreSQL, in memory on PGlite. */
  limits: WindowCounter;
  /**
   * A cache: the OpenAI voice calls this process supervises, by session id (services/calls/registry.ts).
   * Who supervises a call is its lease in the database (services/calls/leases.ts); this map only
   * holds the open sidebands of the leases this process holds. Per process, like the next one:
   * created in buildApp, gone when it closes.
   */
  callRegistry: Map<string, CallSupervisor>;
  /**
   * A cache: ratings running in this process, by session id, so a repeated rating call here waits
   * for the first; the stored rating state in the database is what every server answers from
   * (services/ratings.ts).
   */
  ratingRegistry: Map<string, Promise<RateResponse>>;
  /**
   * The speech pipeline's audio clips: stored in the database, so any server serves any clip
   * (services/speech/clips.ts); in memory only a cache of the clips this process writes.
   */
  clips: ClipStore;
  /**
   * The built-in rater's worker threads (server/rater/rater-pool.ts): every rating, "Try an
   * answer" and the scripted interviewer's follow-ups are judged there, off the event loop.
   * Created in buildApp, closed with the app.
   */
  rater: BuiltInRater;
  /** SIGNIN=link: sends the sign-in mails (SMTP_URL); null in SIGNIN=email. */
  mailer: Mailer | null;
  /** Running, draining or closing (plugins/draining.ts). */
  lifecycle: Lifecycle;
  /** This server process (random per start): the owner named in the OpenAI call leases (services/calls/leases.ts). */
  instanceId: string;
}
