/**
 * RATER_MODEL (server/config.ts) as a folder: `on` is the model shipped in server/rater/model/, a
 * path is an operator's own export (scripts/rater-model/), `off` is none (the words alone).
 */
import path from 'node:path';
import { checkModelFiles, MODEL_DIR } from './model-files';

export function raterModelDir(setting: string): string | null {
  if (setting === 'off') return null;
  return setting === 'on' ? MODEL_DIR : path.resolve(setting);
}

/**
 * The folder of RATER_MODEL with every model file there and unchanged, or an Error whose sentence
 * names the file and what to do (start-up stops with it).
 */
export function checkedRaterModel(setting: string): string | null {
  const dir = raterModelDir(setting);
  if (dir === null) return null;
  try {
    checkModelFiles(dir);
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${problem} Restore the model files (they are part of the repository: server/rater/model/), point RATER_MODEL at a folder that has them, or set RATER_MODEL=off to rate with the word matcher alone.`,
    );
  }
  return dir;
}
