import { PlacementError } from '../placement-error.js';
import { parseInTree } from './in-tree.js';
import { lastValue, validateQueryParams } from './query-string.js';

const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, uuid: { type: 'string', format: 'uuid' } },
  additionalProperties: false,
};

function rejection(run: () => unknown): PlacementError {
  try { run(); } catch (e) { return e as PlacementError; }
  throw new Error('expected a 400');
}

describe('query strings', () => {
  it('answers the last value of a repeated key, as webob does', () => {
    expect(lastValue(new URLSearchParams('name=a&name=b'), 'name')).toBe('b');
    expect(lastValue(new URLSearchParams('name=a'), 'uuid')).toBeUndefined();
  });

  it('validates the last values against the schema', () => {
    expect(validateQueryParams(new URLSearchParams('uuid=x&uuid=8ca2c1a0-c1c6-4a0e-9c5f-0b4ffcc0f9a7'), SCHEMA))
      .toEqual({ uuid: '8ca2c1a0-c1c6-4a0e-9c5f-0b4ffcc0f9a7' });
    const error = rejection(() => validateQueryParams(new URLSearchParams('name=a&pony=1'), SCHEMA));
    expect(error.status).toBe(400);
    expect(error.detail).toMatch(/^Invalid query string parameters: Additional properties are not allowed \('pony' was unexpected\)/);
    expect(rejection(() => validateQueryParams(new URLSearchParams('uuid=nope'), SCHEMA)).detail)
      .toMatch(/^Invalid query string parameters: 'nope' is not a 'uuid'/);
  });

  it('reads in_tree as a uuid', () => {
    expect(parseInTree(' 8ca2c1a0-c1c6-4a0e-9c5f-0b4ffcc0f9a7 ')).toBe('8ca2c1a0-c1c6-4a0e-9c5f-0b4ffcc0f9a7');
    expect(rejection(() => parseInTree('tree')).detail)
      .toBe("Invalid query string parameters: Expected 'in_tree' parameter to be a format of uuid. Got: tree");
  });
});
