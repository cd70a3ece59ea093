/** HTTP part: every listed call on both databases and both table sizes, with RSS. */
import type { DatabaseKind } from '../lib/databases';
import { seededDatabase } from '../lib/databases';
import { runPass, type PassResult } from '../lib/http-bench';
import { startBenchServer } from '../lib/processes';
import { PLAN_FULL, type SeedPlan } from '../lib/seed';

export interface HttpOptions {
  databases: DatabaseKind[];
  eventSizes: number[];
  seconds: number;
  connections: number;
  log: (line: string) => void;
}

export interface HttpPart {
  seed: Array<{ database: DatabaseKind; counts: Record<string, number> }>;
  passes: PassResult[];
  seconds: number;
  connections: number;
}

export async function runHttp(options: HttpOptions): Promise<HttpPart> {
  const part: HttpPart = { seed: [], passes: [], seconds: options.seconds, connections: options.connections };
  for (const kind of options.databases) {
    for (const events of options.eventSizes) {
      const plan: SeedPlan = { ...PLAN_FULL, events };
      options.log(`http: ${kind}, ${events} events: seeding`);
      const database = await seededDatabase(kind, plan, options.log);
      part.seed.push({ database: kind, counts: database.counts });
      try {
        const server = await startBenchServer({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
        try {
          options.log(`http: ${kind}, ${events} events: server pid ${server.serverPid} up, loading`);
          part.passes.push(
            await runPass(server, {
              database: kind,
              events,
              accounts: plan.accounts,
              seconds: options.seconds,
              connections: options.connections,
              log: options.log,
            }),
          );
        } finally {
          await server.stop();
        }
      } finally {
        await database.dispose();
      }
    }
  }
  return part;
}
