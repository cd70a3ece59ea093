/**
 * `npm start`: builds the web app when there is no build or its sources changed
 * (scripts/web-build.ts), then runs the server (server/main.ts) in this same process. The npm
 * script is `exec node …`: the shell npm runs scripts in replaces itself with node, so the server
 * is npm's child and gets the signals npm forwards: SIGTERM or Ctrl-C to `npm start` stops it.
 */
import { buildWeb } from './web-build';

buildWeb({ force: false });
await import('../server/main');
