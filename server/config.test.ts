import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, configWarnings, envSchema, loadConfig, resolveSpeechSettings, resolveVoiceMode } from './config';
import { DEFAULT_MODEL_PRICES } from './openai-models';

describe('configWarnings', () => {
  it('names the support settings when neither is set, and is quiet once one is', () => {
    expect(configWarnings(loadConfig({}))).toEqual([
      'Support is not set up: SUPPORT_CHAT_URL and SUPPORT_CONTACTS are empty, so the support and upgrade dialogs say support is not set up yet.',
    ]);
    expect(configWarnings(loadConfig({ SUPPORT_CHAT_URL: 'https://chat.example.com/g' }))).toEqual([]);
    expect(configWarnings(loadConfig({ SUPPORT_CONTACTS: 'Ann|https://t.me/ann' }))).toEqual([]);
  });

  it('names a model the server pays for that has no price', () => {
    const support = { SUPPORT_CHAT_URL: 'https://chat.example.com/g' };
    expect(configWarnings(loadConfig({ ...support, OPENAI_API_KEY: 'sk-x' }))).toEqual([]);
    expect(configWarnings(loadConfig({ ...support, OPENAI_API_KEY: 'sk-x', REALTIME_MODEL: 'gpt-realtime-9' }))).toEqual([
      'No price for the model gpt-realtime-9: its usage is recorded but adds nothing to the estimated session cost (set MODEL_PRICES).',
    ]);
    // The interviewer's and rater's model on OpenAI is priced too (gpt-4.1-mini by default).
    expect(configWarnings(loadConfig({ ...support, OPENAI_API_KEY: 'sk-x', LLM_MODEL: 'gpt-9-text' }))).toEqual([
      'No price for the model gpt-9-text: its usage is recorded but adds nothing to the estimated session cost (set MODEL_PRICES).',
    ]);
    expect(configWarnings(loadConfig({ ...support, LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3.1' }))).toEqual([]);
    // A local speech server's models cost nothing to us: no warning.
    expect(
      configWarnings(
        loadConfig({
          ...support,
          STT_BASE_URL: 'http://127.0.0.1:8000/v1',
          STT_MODEL: 'whisper',
          TTS_BASE_URL: 'http://127.0.0.1:8880/v1',
          TTS_MODEL: 'kokoro',
          TTS_VOICE: 'af',
        }),
      ),
    ).toEqual([]);
  });
});

describe('MODEL_PRICES', () => {
  it('lays its entries over the defaults, and refuses what is not a price table', () => {
    const config = loadConfig({ MODEL_PRICES: '{"gpt-realtime-2.1":{"audioIn":30,"audioOut":60},"my-tts":{"characters":1.5}}' });
    expect(config.modelPrices['gpt-realtime-2.1']).toEqual({ audioIn: 30, audioOut: 60 });
    expect(config.modelPrices['my-tts']).toEqual({ characters: 1.5 });
    expect(config.modelPrices['gpt-realtime-2.1-mini']).toEqual(DEFAULT_MODEL_PRICES['gpt-realtime-2.1-mini']);
    expect(() => loadConfig({ MODEL_PRICES: 'cheap' })).toThrow(
      'MODEL_PRICES: must be a JSON object, e.g. {"gpt-realtime-2.1":{"audioIn":32,"audioOut":64}}',
    );
    expect(() => loadConfig({ MODEL_PRICES: '{"x":{"audioIn":-1}}' })).toThrow('MODEL_PRICES: x.audioIn:');
    expect(() => loadConfig({ MODEL_PRICES: '{"x":{"perToken":1}}' })).toThrow(
      '(keys: textIn, cachedTextIn, audioIn, cachedAudioIn, textOut, audioOut, audioMinute, characters)',
    );
  });
});

describe('loadConfig', () => {
  it('refuses turn pauses out of order', () => {
    expect(() => loadConfig({ TURN_PAUSE_UNSURE_MS: '400' })).toThrow(
      'TURN_PAUSE_UNSURE_MS: must lie between TURN_PAUSE_FINISHED_MS and TURN_PAUSE_UNFINISHED_MS',
    );
    expect(() => loadConfig({ TURN_PAUSE_PIECE_MS: '500' })).toThrow('TURN_PAUSE_PIECE_MS: must not be longer than TURN_PAUSE_FINISHED_MS');
    expect(loadConfig({ TURN_PAUSE_PIECE_MS: '450' }).turnPauses).toEqual({
      pieceMs: 450,
      finishedMs: 450,
      unsureMs: 1200,
      unfinishedMs: 2500,
      heldMs: 1500,
    });
    // The held voice may play on at once (0), and no longer than 10 s.
    expect(loadConfig({ TURN_PAUSE_HELD_MS: '0' }).turnPauses.heldMs).toBe(0);
    expect(() => loadConfig({ TURN_PAUSE_HELD_MS: '-1' })).toThrow('TURN_PAUSE_HELD_MS: must be at least 0 (milliseconds)');
    expect(() => loadConfig({ TURN_PAUSE_HELD_MS: '10001' })).toThrow('TURN_PAUSE_HELD_MS: must be at most 10000 (milliseconds)');
  });

  it('refuses a headers timeout longer than the request timeout, and timeouts under 100 ms', () => {
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toThrow(
      'HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS',
    );
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '5' })).toThrow('KEEP_ALIVE_TIMEOUT_MS: must be at least 100 (milliseconds)');
    expect(loadConfig({ TURN_ACCOUNT_RATE_LIMIT: '7', MAX_CONNECTIONS: '50' })).toMatchObject({
      callLimits: { turn: { perAccount: 7 } },
      maxConnections: 50,
    });
  });

  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      catalogueDir: path.resolve(import.meta.dirname, '../content/question-sets'),
      databaseUrl: null,
      adminSecret: null,
      productName: 'Interview',
      supportChatUrl: '',
      supportContacts: [],
      signup: 'open',
      signin: 'email',
      smtpUrl: null,
      mailFrom: null,
      publicUrl: null,
      freeSessionLimit: 5,
      proSessionLimit: 100,
      levelPassScore: 0,
      accountStorageBytes: 20 * 1024 * 1024,
      corsOrigins: [],
      rateLimitAllowList: [],
      loginRateLimit: 30,
      tokenRateLimit: 60,
      callLimits: {
        rating: { perAddress: 20, perAccount: 6 },
        turn: { perAddress: 120, perAccount: 30 },
        abandon: { perAddress: 20, perAccount: 6 },
        feedback: { perAddress: 20, perAccount: 6 },
      },
      timeouts: { requestMs: 30_000, headersMs: 10_000, connectionMs: 300_000, keepAliveMs: 5_000 },
      maxConnections: 1000,
      ratingRetryAttempts: 6,
      ratingRetryDelaySeconds: 60,
      sessionIdleMinutes: 10,
      raterModel: 'on',
      trustProxy: [],
      logLevel: 'info',
      dogImageApi: 'https://dog.ceo/api/breeds/image/random',
      openaiApiKey: null,
      openaiBaseUrl: 'https://api.openai.com/v1',
      realtimeModel: 'gpt-realtime-2.1',
      realtimeTranscriptionModel: 'gpt-transcribe',
      realtimeNoiseReduction: 'far_field',
      maxSessionMinutes: 30,
      llmBaseUrl: null,
      llmApiKey: null,
      llmModel: null,
      voiceModeSetting: 'auto',
      sttBaseUrl: null,
      sttModel: null,
      sttApiKey: null,
      ttsBaseUrl: null,
      ttsModel: null,
      ttsVoice: null,
      ttsApiKey: null,
      modelPrices: DEFAULT_MODEL_PRICES,
      upstreamDeadlineSeconds: 60,
      sessionSpeechAnswers: 200,
      sessionSpeechSeconds: 900,
      maxAnswerSeconds: 120,
      turnPauses: { pieceMs: 200, finishedMs: 450, unsureMs: 1200, unfinishedMs: 2500, heldMs: 1500 },
      sessionAudioClips: 40,
      editorLlmCallsPerHour: 60,
      editorLlmPromptCharsPerHour: 1_500_000,
      shutdownDrainSeconds: 0,
    });
  });

  it('parses every setting', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@db:5432/app',
      ADMIN_SECRET: 'Xk3-9pQz_7LmWv2R-a-long-one',
      PRODUCT_NAME: 'Frontend',
      SUPPORT_CHAT_URL: 'https://chat.example.com/g',
      SUPPORT_CONTACTS: 'Ann|https://t.me/ann, Bob|https://example.com/bob',
      SIGNUP: 'invite',
      FREE_SESSION_LIMIT: '2',
      PRO_SESSION_LIMIT: '40',
      CORS_ORIGINS: 'https://app.example.com/,http://localhost:5173',
      RATE_LIMIT_ALLOW: '127.0.0.1, ::1',
      LOGIN_RATE_LIMIT: '100',
      TOKEN_RATE_LIMIT: '5',
      TRUST_PROXY: '10.0.0.0/8, 192.0.2.1, fd00::/8',
      LOG_LEVEL: 'warn',
      DOG_IMAGE_API: 'off',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1/',
      REALTIME_MODEL: 'gpt-realtime-mini',
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      LLM_API_KEY: 'ollama',
      LLM_MODEL: 'llama3.2',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      dataDir: '/tmp/x',
      databaseUrl: 'postgres://u@db:5432/app',
      adminSecret: 'Xk3-9pQz_7LmWv2R-a-long-one',
      productName: 'Frontend',
      supportContacts: [
        { name: 'Ann', url: 'https://t.me/ann' },
        { name: 'Bob', url: 'https://example.com/bob' },
      ],
      signup: 'invite',
      freeSessionLimit: 2,
      proSessionLimit: 40,
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      rateLimitAllowList: ['127.0.0.1', '::1'],
      loginRateLimit: 100,
      tokenRateLimit: 5,
      trustProxy: ['10.0.0.0/8', '192.0.2.1', 'fd00::/8'],
      logLevel: 'warn',
      dogImageApi: null,
      openaiApiKey: 'sk-test',
      openaiBaseUrl: 'http://127.0.0.1:9999/v1',
      realtimeModel: 'gpt-realtime-mini',
      llmBaseUrl: 'http://127.0.0.1:11434/v1',
      llmApiKey: 'ollama',
      llmModel: 'llama3.2',
    });
  });

  it('stops on a hand-set admin secret too weak to survive guessing, with a sentence', () => {
    for (const weak of ['short', 'password1234', 'admin-secret-1', 'aaaaaaaaaaaaaaaaaaaaaaaa', 'abcabcabcabcabcabcabc']) {
      expect(() => loadConfig({ ADMIN_SECRET: weak }), weak).toThrow(
        'ADMIN_SECRET: is too weak to survive guessing: use at least 16 characters with at least 10 different ones, mixing letters, digits or symbols (for example the output of `openssl rand -base64 24`)',
      );
    }
    expect(loadConfig({ ADMIN_SECRET: 'q7Vw2-Rt9xZ_b4Lp' }).adminSecret).toBe('q7Vw2-Rt9xZ_b4Lp');
  });

  it('SIGNIN=link stops start-up with the list of what it lacks; SIGNIN=email warns once when listening beyond loopback', () => {
    expect(() => loadConfig({ SIGNIN: 'link', PUBLIC_URL: 'https://interview.example.com' })).toThrow(
      'Invalid configuration:\n  - SIGNIN: link needs SMTP_URL (the SMTP server that sends the sign-in links)\n  - SIGNIN: link needs MAIL_FROM (the sender of the sign-in mails)',
    );
    const link = loadConfig({
      SIGNIN: 'link',
      SMTP_URL: 'smtp://user:pass@mail.example.com:587',
      MAIL_FROM: 'Interview <no-reply@example.com>',
      PUBLIC_URL: 'https://interview.example.com/',
      HOST: '0.0.0.0',
    });
    expect([link.signin, link.publicUrl]).toEqual(['link', 'https://interview.example.com']);
    expect(configWarnings(link).filter((w) => w.startsWith('SIGNIN'))).toEqual([]);
    expect(configWarnings(loadConfig({})).filter((w) => w.startsWith('SIGNIN'))).toEqual([]);
    expect(configWarnings(loadConfig({ HOST: '0.0.0.0' })).filter((w) => w.startsWith('SIGNIN'))).toEqual([
      "SIGNIN=email on 0.0.0.0: anyone who can reach this server and knows a candidate's email can read their interviews; on a public site set SIGNIN=link (README, Who can read what).",
    ]);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', OPENAI_API_KEY: '  ', SIGNUP: '' })).toMatchObject({ port: 3000, openaiApiKey: null, signup: 'open' });
  });

  it('lists every bad key', () => {
    let caught: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        SIGNUP: 'closed',
        SUPPORT_CONTACTS: 'just a name',
        DATABASE_URL: 'mysql://x',
        FREE_SESSION_LIMIT: '-1',
        CORS_ORIGINS: 'not an origin',
        DOG_IMAGE_API: 'sometimes',
        ADMIN_SECRET: 'short',
        RATE_LIMIT_ALLOW: 'localhost',
        LOGIN_RATE_LIMIT: '0',
        TOKEN_RATE_LIMIT: 'many',
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'loud',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const keys = (caught as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(keys.sort()).toEqual(
      [
        'ADMIN_SECRET',
        'CORS_ORIGINS',
        'DATABASE_URL',
        'DOG_IMAGE_API',
        'FREE_SESSION_LIMIT',
        'LOG_LEVEL',
        'LOGIN_RATE_LIMIT',
        'PORT',
        'RATE_LIMIT_ALLOW',
        'SIGNUP',
        'SUPPORT_CONTACTS',
        'TOKEN_RATE_LIMIT',
        'TRUST_PROXY',
      ].sort(),
    );
    expect((caught as ConfigError).message).toContain('Invalid configuration:');
  });
});

describe('voice mode', () => {
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
  };
  const local = {
    STT_BASE_URL: 'http://gpu:8000/v1/',
    STT_MODEL: 'Systran/faster-whisper-small',
    TTS_BASE_URL: 'http://gpu:8880/v1',
    TTS_MODEL: 'kokoro',
    TTS_VOICE: 'af_heart',
  };

  it('auto: realtime with an OpenAI key, else the pipeline with both speech servers, else browser speech', () => {
    expect(resolveVoiceMode(loadConfig({}))).toBe('browser');
    expect(resolveVoiceMode(loadConfig(local))).toBe('pipeline');
    expect(resolveVoiceMode(loadConfig({ ...local, OPENAI_API_KEY: 'sk-x' }))).toBe('realtime');
    expect(resolveVoiceMode(loadConfig({ OPENAI_API_KEY: 'sk-x' }))).toBe('realtime');
  });

  it('a forced mode wins', () => {
    expect(resolveVoiceMode(loadConfig({ VOICE_MODE: 'browser', OPENAI_API_KEY: 'sk-x' }))).toBe('browser');
    expect(resolveVoiceMode(loadConfig({ VOICE_MODE: 'pipeline', ...local }))).toBe('pipeline');
  });

  it('pipeline with only an OpenAI key: OpenAI endpoint, key and current non-realtime models', () => {
    const config = loadConfig({ VOICE_MODE: 'pipeline', OPENAI_API_KEY: 'sk-x' });
    expect(resolveVoiceMode(config)).toBe('pipeline');
    expect(resolveSpeechSettings(config)).toEqual({
      stt: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-transcribe', apiKey: 'sk-x' },
      tts: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini-tts', voice: 'marin', apiKey: 'sk-x' },
    });
  });

  it('named speech servers get their own keys, never the OpenAI key', () => {
    const config = loadConfig({ VOICE_MODE: 'pipeline', OPENAI_API_KEY: 'sk-x', ...local, TTS_API_KEY: 'tts-key' });
    expect(resolveSpeechSettings(config)).toEqual({
      stt: { baseUrl: 'http://gpu:8000/v1', model: 'Systran/faster-whisper-small', apiKey: null },
      tts: { baseUrl: 'http://gpu:8880/v1', model: 'kokoro', voice: 'af_heart', apiKey: 'tts-key' },
    });
  });

  it('a bad combination stops start-up with the list of what is missing', () => {
    expect(problemsOf({ VOICE_MODE: 'realtime' })).toEqual(['VOICE_MODE: realtime needs OPENAI_API_KEY']);
    expect(problemsOf({ VOICE_MODE: 'pipeline' })).toEqual([
      'VOICE_MODE: the speech pipeline needs STT_BASE_URL (or OPENAI_API_KEY to use OpenAI)',
      'VOICE_MODE: the speech pipeline needs TTS_BASE_URL (or OPENAI_API_KEY to use OpenAI)',
    ]);
    expect(problemsOf({ VOICE_MODE: 'pipeline', STT_BASE_URL: 'http://gpu:8000/v1', TTS_BASE_URL: 'http://gpu:8880/v1' })).toEqual([
      'VOICE_MODE: the speech pipeline needs STT_MODEL (the model STT_BASE_URL serves)',
      'VOICE_MODE: the speech pipeline needs TTS_MODEL (the model TTS_BASE_URL serves)',
      'VOICE_MODE: the speech pipeline needs TTS_VOICE (a voice TTS_BASE_URL knows)',
    ]);
    // auto with one speech server only is a half-made pipeline, not a silent browser-speech start.
    expect(problemsOf({ STT_BASE_URL: 'http://gpu:8000/v1', STT_MODEL: 'whisper' })).toEqual([
      'VOICE_MODE: the speech pipeline needs TTS_BASE_URL (or OPENAI_API_KEY to use OpenAI)',
    ]);
    expect(problemsOf({ VOICE_MODE: 'loud' })).toEqual(['VOICE_MODE: must be one of auto, realtime, pipeline, browser']);
  });
});

describe('the settings documentation', () => {
  const root = path.resolve(import.meta.dirname, '..');
  const keys = Object.keys(envSchema.shape);

  it('has a README table row and an .env.example line for every setting, and no others', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const example = readFileSync(path.join(root, '.env.example'), 'utf8');
    for (const key of keys) {
      expect(readme, key).toContain(`| \`${key}\` |`);
      expect(example, key).toMatch(new RegExp(`^#? ?${key}=`, 'm'));
    }
    const documented = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(documented.filter((key) => !keys.includes(key ?? ''))).toEqual([]);
  });
});
