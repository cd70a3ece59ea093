/**
 * The test run's own environment (not the app's settings, which only server/config.ts reads):
 * where the PostgreSQL test databases live, whether this is CI, and the little a child server
 * process needs.
 */
export function readTestEnv(): { testDatabaseUrl: string; ci: boolean; pgliteTemplateDir: string | null } {
  return {
    testDatabaseUrl: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    ci: process.env.CI === 'true' || process.env.CI === '1',
    // A migrated PGlite data directory that fresh server processes start from (server-process.ts).
    pgliteTemplateDir: process.env.TEST_PGLITE_TEMPLATE_DIR || null,
  };
}

/** PATH and HOME only: what a child server process needs, without this shell's settings. */
export function minimalChildEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
}

/**
 * Settings a child server process must never take from this shell (keys, another database, the
 * address, the data directory): e2e and bench servers start from this shell's environment without them.
 */
const NOT_INHERITED = [
  'OPENAI_API_KEY',
  'LLM_API_KEY',
  'LLM_BASE_URL',
  'LLM_MODEL',
  'DATABASE_URL',
  'ADMIN_SECRET',
  'PORT',
  'HOST',
  'DATA_DIR',
];

/** This shell's environment without the settings above. */
export function inheritedChildEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !NOT_INHERITED.includes(key)) env[key] = value;
  return env;
}
