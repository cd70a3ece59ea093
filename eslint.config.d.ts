// Types of the named exports of eslint.config.js that eslint.config.test.ts probes.
import type { Linter } from 'eslint';

export const FOLDERS: string[];
export const TEST_FILES: string[];
export const ALLOWED_PACKAGES: Record<'domain' | 'contract', string[]>;
export function unzonedFolders(root?: string | URL): string[];
declare const config: Linter.Config[];
export default config;
