import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACCESS_MATRIX } from './access-matrix.js';
import { renderMatrix } from './matrix-table.js';

describe('the access matrix in the manual', () => {
  it('is what docs/authorization.md shows (regenerate: node dist/test/authorization/print-matrix.js)', () => {
    const page = readFileSync(join(__dirname, '../../docs/authorization.md'), 'utf8');
    const start = page.indexOf('<!-- access matrix:');
    const end = page.indexOf('<!-- end of access matrix -->') + '<!-- end of access matrix -->'.length;
    expect(page.slice(start, end)).toBe(renderMatrix());
  });

  it('has a row per route, one rule each, and a verdict for every caller in every mode', () => {
    for (const row of ACCESS_MATRIX) {
      for (const matrixCase of row.cases) {
        for (const verdicts of Object.values(matrixCase.verdicts)) expect(Object.keys(verdicts)).toHaveLength(7);
        // Without a token, only what needs no rule answers.
        expect(matrixCase.verdicts.scope_on.no_token).toBe(row.rule === null ? 'allowed' : 'denied');
      }
    }
  });
});
