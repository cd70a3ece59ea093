/**
 * `folder-cycles/no-folder-cycle`: import-x/no-cycle follows files, so two folders that import each
 * other through different files pass it (rater ⇄ providers, config ⇄ providers: issue 36). This rule
 * follows folders: each part of the server (a folder or a file directly in server/) and each other
 * top-level folder is one node, a value import from one into another is an edge, and an import that
 * closes a loop of nodes is reported. Type-only imports (`import type`, or only `type` specifiers)
 * are not edges: they do not load the other module. Test code is not linted by this rule
 * (eslint.config.js), and its files are not read: tests may reach across.
 *
 * The graph is read from disk once per ESLint process, the file being linted from its own text.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The node a file belongs to: `server/<part>` inside server/, else its top-level folder. */
export function folderOf(relative) {
  const parts = relative.split(path.sep).join('/').split('/');
  return parts[0] === 'server' && parts.length > 1 ? `server/${parts[1]}` : parts[0];
}

const SKIP_DIRS = new Set(['node_modules', 'dist', 'migrations', 'fixtures', 'tests', 'e2e', 'test-support', 'bench']);
const isTestFile = (file) => /\.test\.tsx?$/.test(file);

function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !isTestFile(entry.name)) out.push(full);
  }
  return out;
}

function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier.replace(/\.(js|ts|tsx)$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The value imports (and re-exports) of one file's text, as module specifiers. */
function valueImports(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const specifiers = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          clause.namedBindings &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((element) => element.isTypeOnly));
      if (!typeOnly) specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}

const graphs = new Map();
/** file → the files it imports (values), for every source file under root. */
function diskGraph(root) {
  if (!graphs.has(root)) {
    const edges = new Map();
    for (const file of sourceFiles(root)) {
      const targets = valueImports(file, readFileSync(file, 'utf8')).map((specifier) => resolveImport(file, specifier));
      edges.set(file, targets.filter(Boolean));
    }
    graphs.set(root, edges);
  }
  return graphs.get(root);
}

/** folder → folder it imports → one [file, imported file] that shows it. */
function folderEdges(edges, root) {
  const folder = (file) => folderOf(path.relative(root, file));
  const byFolder = new Map();
  for (const [file, targets] of edges) {
    for (const target of targets) {
      const [a, b] = [folder(file), folder(target)];
      if (a === b) continue;
      if (!byFolder.has(a)) byFolder.set(a, new Map());
      if (!byFolder.get(a).has(b)) byFolder.get(a).set(b, [file, target]);
    }
  }
  return byFolder;
}

/** The imports that lead from folder `from` to folder `to` (shortest), or null. */
function folderPath(byFolder, from, to) {
  const seen = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === to) {
      const steps = [];
      for (let at = to; seen.get(at); at = seen.get(at).from) steps.unshift(seen.get(at).edge);
      return steps;
    }
    for (const [next, edge] of byFolder.get(current) ?? []) {
      if (!seen.has(next)) {
        seen.set(next, { from: current, edge });
        queue.push(next);
      }
    }
  }
  return null;
}

export const noFolderCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Folders (and the files directly in server/) depend on each other one way only.' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: {
      cycle:
        '{{from}} imports {{to}}, and {{to}} already depends on {{from}} ({{back}}): folders depend on each other one way only (ARCHITECTURE.md, Boundaries).',
    },
  },
  create(context) {
    const root = context.options[0]?.root ?? context.cwd;
    const file = context.physicalFilename;
    const relative = path.relative(root, file);
    if (relative.startsWith('..')) return {};
    const own = folderOf(relative);
    return {
      'Program:exit'() {
        const edges = new Map(diskGraph(root));
        const mine = valueImports(file, context.sourceCode.text)
          .map((specifier) => ({ specifier, target: resolveImport(file, specifier) }))
          .filter(({ target }) => target && folderOf(path.relative(root, target)) !== own);
        edges.set(
          file,
          mine.map(({ target }) => target),
        );
        const byFolder = folderEdges(edges, root);
        const reported = new Set();
        for (const { specifier, target } of mine) {
          const to = folderOf(path.relative(root, target));
          if (reported.has(to)) continue;
          const back = folderPath(byFolder, to, own);
          if (!back) continue;
          reported.add(to);
          const node = context.sourceCode.ast.body.find((statement) => statement.source?.value === specifier) ?? context.sourceCode.ast;
          const shown = back.map(([a, b]) => `${path.relative(root, a)} → ${path.relative(root, b)}`).join(', ');
          context.report({ node, messageId: 'cycle', data: { from: own, to, back: shown } });
        }
      },
    };
  },
};

export default { rules: { 'no-folder-cycle': noFolderCycle } };
