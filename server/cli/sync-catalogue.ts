/**
 * `npm run catalogue:sync [-- --force]`: an explicit import of content/question-sets/*.md into the
 * configured database, by index. The database is the source of truth once loaded, so a set an
 * admin edited is not overwritten unless `--force` is given (the run then writes nothing and names
 * those sets). Sets are never deleted here, so ratings that point at them stay intact.
 */
import { readCatalogue } from '../catalogue/read-catalogue';
import { readConfigOrExit } from '../config';
import { importCatalogue } from '../services/catalogue';
import { withScriptDatabase } from './script-database';

async function main(): Promise<void> {
  const force = process.argv.slice(2).includes('--force');
  const config = readConfigOrExit();
  const sets = await readCatalogue(config.catalogueDir);
  const result = await withScriptDatabase(config, 'catalogue sync', (db) => importCatalogue(db, sets, force));
  if (result.refused.length > 0) {
    const names = result.refused.map((s) => `  - index ${s.index} "${s.name}"`).join('\n');
    console.error(
      `Nothing was synced: these sets were edited in the admin and the files would overwrite them:\n${names}\n` +
        'Run `npm run catalogue:export` to keep the edits in the files, or `npm run catalogue:sync -- --force` to overwrite them.',
    );
    process.exit(1);
  }
  console.log(`Synced ${result.written} question sets from ${config.catalogueDir} (${result.unchanged} unchanged).`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Catalogue sync failed: ${error.message}` : error);
  process.exit(1);
});
