import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** The folders of code, each with the alias of package.json's "imports" that names it. */
const ALIASES: Record<string, { readonly types: string }> = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')).imports;
const ROOTS = ['apps', 'libs', 'projections', 'test'];

// Every way a module names another: import and export … from (type-only ones too), import('…') in a
// type or an expression, jest.mock('…').
const SPECIFIER = /(?:\bfrom|\bimport\(|\bimport|\bmock\()\s*'([^']+)'/g;

/** Each source file of the tree (repository-relative) and the files it imports. */
export function importGraph(root: string): Map<string, string[]> {
  const files = ROOTS.flatMap((folder) => walk(root, folder));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets = [...text.matchAll(SPECIFIER)].map(([, spec]) => resolve(file, spec, known)).filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

function walk(root: string, folder: string): string[] {
  if (!existsSync(join(root, folder))) return [];
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split('/').includes('node_modules'));
}

function resolve(importer: string, spec: string, known: Set<string>): string | undefined {
  let path: string | undefined;
  if (spec.startsWith('.')) path = normalize(join(dirname(importer), spec));
  else if (spec.startsWith('#')) {
    const alias = Object.keys(ALIASES).find((name) => spec.startsWith(name.replace('*', '')));
    if (alias) path = ALIASES[alias].types.slice(2).replace('*', spec.slice(alias.length - 1));
  }
  if (path === undefined) return undefined;
  return [path.replace(/\.js$/, '.ts'), `${path}.ts`, join(path, 'index.ts')].find((candidate) => known.has(candidate));
}

/** The cycles of the graph: its strongly connected components of more than one file, or a file importing itself. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The package a file belongs to: `apps/<name>`, `libs/<name>`, `projections` or `test`. */
export function packageOf(file: string): string {
  const [top, name] = file.split('/');
  return top === 'apps' || top === 'libs' ? `${top}/${name}` : top;
}
