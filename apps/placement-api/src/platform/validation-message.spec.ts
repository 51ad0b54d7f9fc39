import { httpBadRequest } from './placement-error.js';
import { extractJson } from './json-body.js';

const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', maxLength: 5 }, uuid: { type: 'string', format: 'uuid' }, total: { type: 'integer', minimum: 1 } },
  required: ['name'],
  additionalProperties: false,
};

function messageFor(body: string): string {
  try {
    extractJson(body, SCHEMA);
  } catch (error) {
    return (error as ReturnType<typeof httpBadRequest>).detail;
  }
  throw new Error('expected a validation error');
}

describe('validation messages in python-jsonschema form', () => {
  it('names the failing keyword, schema path and instance', () => {
    const message = messageFor('{"name": "toolong"}');
    expect(message).toContain("JSON does not validate: 'toolong' is too long");
    expect(message).toContain("Failed validating 'maxLength' in schema['properties']['name']");
    expect(message).toContain("On instance['name']");
  });

  it('reports missing, unexpected, mistyped and out-of-range values as upstream', () => {
    expect(messageFor('{}')).toContain("'name' is a required property");
    expect(messageFor('{"name": "a", "x": 1}')).toContain("Additional properties are not allowed ('x' was unexpected)");
    // Every extra at once, sorted, as jsonschema words it (ajv stops at the first).
    expect(messageFor('{"zz": 1, "name": "a", "b": 2}')).toContain("Additional properties are not allowed ('b', 'zz' were unexpected)");
    // pprint sorts the instance's keys too.
    expect(messageFor('{"zz": 1, "name": "a", "b": 2}')).toContain("On instance:\n    {'b': 2, 'name': 'a', 'zz': 1}");
    expect(messageFor('{"name": 5}')).toContain("5 is not of type 'string'");
    expect(messageFor('{"name": "a", "total": 0}')).toContain('0 is less than the minimum of 1');
    expect(messageFor('{"name": "a", "uuid": "nope"}')).toContain("Failed validating 'format'");
  });

  it('names every property no pattern admits, sorted', () => {
    const schema = { type: 'object', patternProperties: { '^resources[0-9]*$': { type: 'string' } }, additionalProperties: false };
    let detail = '';
    try { extractJson('{"resources_GPU": "x", "required_GPU": "y", "resources": "z"}', schema); } catch (error) { detail = (error as { detail: string }).detail; }
    expect(detail).toContain("'required_GPU', 'resources_GPU' do not match any of the regexes: '^resources[0-9]*$'");
  });

  it('answers malformed JSON separately', () => {
    expect(messageFor('{"name": ')).toMatch(/^Malformed JSON: /);
  });
});
