/**
 * `npm run catalogue:export [-- --out <dir>]`: writes the database's active question sets back to
 * catalogue files (default: content/question-sets), so sets edited in the admin can be kept in
 * version control. A file for an index keeps its name; `.md` files whose index no longer exists
 * in the database are removed, so the directory mirrors the database and a later sync brings
 * nothing back that the admin deleted.
 */
import { readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseQuestionSetFile } from '../catalogue/read-catalogue';
import { formatQuestionSetFile, questionSetFileName } from '../catalogue/write-catalogue';
import { readConfigOrExit } from '../config';
import { exportCatalogue } from '../services/catalogue';
import { withScriptDatabase } from './script-database';

function outDir(args: string[], catalogueDir: string): string {
  const at = args.indexOf('--out');
  const value = at >= 0 ? args[at + 1] : undefined;
  return value ? path.resolve(value) : catalogueDir;
}

/** index -> file name of the files already there (unreadable files are left alone). */
async function existingFiles(dir: string): Promise<Map<number, string>> {
  const byIndex = new Map<number, string>();
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.md'))) {
    try {
      byIndex.set(parseQuestionSetFile(name, await readFile(path.join(dir, name), 'utf8')).index, name);
    } catch {
      // A file the catalogue cannot read is not ours to replace or remove.
    }
  }
  return byIndex;
}

async function main(): Promise<void> {
  const config = readConfigOrExit();
  const dir = outDir(process.argv.slice(2), config.catalogueDir);
  const sets = await withScriptDatabase(config, 'catalogue export', (db) => exportCatalogue(db));
  await mkdir(dir, { recursive: true });
  const before = await existingFiles(dir);
  for (const set of sets) {
    await writeFile(path.join(dir, before.get(set.index) ?? questionSetFileName(set)), formatQuestionSetFile(set));
  }
  const kept = new Set(sets.map((s) => s.index));
  const removed = [...before].filter(([index]) => !kept.has(index)).map(([, name]) => name);
  for (const name of removed) await rm(path.join(dir, name));
  console.log(`Exported ${sets.length} question sets to ${dir}${removed.length > 0 ? ` (removed ${removed.join(', ')})` : ''}.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Catalogue export failed: ${error.message}` : error);
  process.exit(1);
});
