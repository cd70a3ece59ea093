import { defineConfig } from 'drizzle-kit';

// drizzle-kit only diffs the schema into SQL here; it never connects to a database.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
