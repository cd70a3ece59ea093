import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, envSchema, loadConfig } from './config';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      adminSecret: null,
      productName: 'Interview',
      supportChatUrl: 'https://t.me/interview_practice_chat',
      supportContacts: [
        { name: 'Founder One', url: 'https://t.me/founder_one' },
        { name: 'Founder Two', url: 'https://t.me/founder_two' },
      ],
      signup: 'open',
      freeSessionLimit: 5,
      proSessionLimit: 100,
      corsOrigins: [],
      rateLimitAllowList: [],
      loginRateLimit: 30,
      tokenRateLimit: 60,
      trustProxy: [],
      logLevel: 'info',
      dogImageApi: 'https://dog.ceo/api/breeds/image/random',
      openaiApiKey: null,
      openaiBaseUrl: 'https://api.openai.com/v1',
      realtimeModel: 'gpt-realtime-2.1',
      realtimeTranscriptionModel: 'gpt-4o-mini-transcribe',
      llmBaseUrl: null,
      llmApiKey: null,
      llmModel: null,
    });
  });

  it('parses every setting', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@db:5432/app',
      ADMIN_SECRET: 'a-very-long-secret',
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
      adminSecret: 'a-very-long-secret',
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
