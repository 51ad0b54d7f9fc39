import { join } from 'node:path';
import { cycles, importGraph, packageOf } from './import-graph.js';

// import-x/no-cycle (npm run lint) passes over type-only imports; this walk counts them too.
describe('the import graph', () => {
  const graph = importGraph(join(__dirname, '../..'));
  const edges = [...graph].flatMap(([file, targets]) => targets.map((target) => ({ file, target })));

  it('has no cycle, type-only imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has apps import libs, never another app', () => {
    const across = edges.filter(({ file, target }) => file.startsWith('apps/') && target.startsWith('apps/') && packageOf(file) !== packageOf(target));
    expect(across).toEqual([]);
  });

  it('has libs and projections import no app', () => {
    const upward = edges.filter(({ file, target }) => !file.startsWith('apps/') && !file.startsWith('test/') && target.startsWith('apps/'));
    expect(upward).toEqual([]);
  });

  it('finds the imports it walks', () => {
    expect(graph.get('apps/placement-api/src/main.ts')?.length).toBeGreaterThan(0);
  });
});
