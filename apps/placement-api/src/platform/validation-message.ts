import type { ErrorObject } from 'ajv';
import { pyRepr } from './python-repr.js';

const PY_TYPES: Record<string, string> = { string: 'string', integer: 'integer', number: 'number', object: 'object', array: 'array', boolean: 'boolean', null: 'null' };

function at(data: unknown, pointer: string): unknown {
  return pointer.split('/').slice(1)
    .map((key) => decodeURIComponent(key.replace(/~1/g, '/').replace(/~0/g, '~')))
    .reduce<any>((value, key) => value?.[key], data);
}

function subscripts(segments: string[]): string {
  return segments.map((s) => (/^\d+$/.test(s) ? `[${s}]` : `[${pyRepr(s)}]`)).join('');
}

/** The instance's properties neither `properties` nor `patternProperties` admit, sorted by code point as Python sorts. */
function extraProperties(value: unknown, schema: any, reported: string): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [reported];
  const known = schema?.properties ?? {};
  const patterns = Object.keys(schema?.patternProperties ?? {}).map((pattern) => new RegExp(pattern, 'u'));
  const extras = Object.keys(value).filter((key) => !(key in known) && !patterns.some((pattern) => pattern.test(key)));
  return extras.length > 0 ? extras.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : [reported];
}

/** The first line of python-jsonschema's message for one failure. */
function headline(error: ErrorObject, value: unknown, schema: any): string {
  const p = error.params as Record<string, any>;
  switch (error.keyword) {
    case 'type': {
      const types = ([] as string[]).concat(schema?.type ?? p.type).map((t) => `'${PY_TYPES[t] ?? t}'`);
      return `${pyRepr(value)} is not of type ${types.join(', ')}`;
    }
    case 'required': return `${pyRepr(p.missingProperty)} is a required property`;
    case 'additionalProperties': {
      const patterns = schema?.patternProperties ? Object.keys(schema.patternProperties) : [];
      // jsonschema names every extra property at once, sorted; ajv reports them one by one.
      const extras = extraProperties(value, schema, p.additionalProperty);
      const names = extras.map((name) => pyRepr(name)).join(', ');
      if (patterns.length > 0) {
        return `${names} ${extras.length === 1 ? 'does' : 'do'} not match any of the regexes: ${patterns.map((p) => pyRepr(p)).join(', ')}`;
      }
      return `Additional properties are not allowed (${names} ${extras.length === 1 ? 'was' : 'were'} unexpected)`;
    }
    case 'pattern': return `${pyRepr(value)} does not match ${pyRepr(p.pattern)}`;
    case 'maxLength': case 'maxItems': return `${pyRepr(value)} is too long`;
    case 'minLength': case 'minItems': return `${pyRepr(value)} is too short`;
    case 'minProperties': return `${pyRepr(value)} does not have enough properties`;
    case 'minimum': return `${pyRepr(value)} is less than the minimum of ${pyRepr(p.limit)}`;
    case 'maximum': return `${pyRepr(value)} is greater than the maximum of ${pyRepr(p.limit)}`;
    case 'uniqueItems': return `${pyRepr(value)} has non-unique elements`;
    case 'enum': return `${pyRepr(value)} is not one of ${pyRepr(p.allowedValues)}`;
    case 'const': return `${pyRepr(p.allowedValue)} was expected`;
    case 'format': return `${pyRepr(value)} is not a ${pyRepr(p.format)}`;
    case 'anyOf': case 'oneOf': return `${pyRepr(value)} is not valid under any of the given schemas`;
    case 'not': return `${pyRepr(value)} should not be valid under ${pyRepr(schema?.not)}`;
    default: return `${pyRepr(value)} ${error.message ?? 'is not valid'}`;
  }
}

/** python-jsonschema's str(ValidationError): the message, the failing schema part, the instance (both pprint'ed, so keys sorted). */
export function validationMessage(error: ErrorObject, data: unknown, rootSchema: unknown): string {
  const schemaSegments = error.schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean).slice(0, -1)
    .map((s) => decodeURIComponent(s.replace(/~1/g, '/').replace(/~0/g, '~')));
  const subschema = schemaSegments.reduce<any>((s, key) => s?.[key], rootSchema);
  const value = at(data, error.instancePath);
  const instanceSegments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const shownSchema = subschema;
  return `${headline(error, value, subschema)}\n\nFailed validating ${pyRepr(error.keyword)} in schema${subscripts(schemaSegments)}:\n    ${pyRepr(shownSchema, true)}\n\nOn instance${subscripts(instanceSegments)}:\n    ${pyRepr(value, true)}`;
}
