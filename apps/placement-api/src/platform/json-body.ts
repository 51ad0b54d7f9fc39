import { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { httpBadRequest } from './placement-error.js';

/** uuidutils.is_uuid_like: 32 hex digits, dashes and braces optional. */
export function isUuidLike(value: string): boolean {
  return /^[0-9a-f]{32}$/i.test(value.replace(/^urn:uuid:/i, '').replace(/[{}-]/g, ''));
}

export const ajv = new Ajv({ allErrors: false, strict: false });
ajv.addFormat('uuid', isUuidLike);

export type Schema = Record<string, unknown>;
const compiled = new WeakMap<Schema, ValidateFunction>();

export function validator(schema: Schema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

function describe(error: ErrorObject, data: unknown): string {
  const path = error.instancePath;
  const value = path.split('/').slice(1).reduce<any>((v, key) => v?.[decodeURIComponent(key.replace(/~1/g, '/').replace(/~0/g, '~'))], data);
  const shown = JSON.stringify(value);
  switch (error.keyword) {
    case 'required': return `'${(error.params as { missingProperty: string }).missingProperty}' is a required property`;
    case 'additionalProperties': return `Additional properties are not allowed ('${(error.params as { additionalProperty: string }).additionalProperty}' was unexpected)`;
    case 'type': return `${shown} is not of type '${(error.params as { type: string }).type}'`;
    case 'pattern': return `${shown} does not match '${(error.params as { pattern: string }).pattern}'`;
    case 'format': return `${shown} is not a '${(error.params as { format: string }).format}'`;
    default: return `${shown} ${error.message ?? 'is not valid'}`;
  }
}

/** Parses and validates a JSON body as upstream's util.extract_json does. */
export function extractJson<T = any>(body: string | undefined, schema: Schema): T {
  let data: unknown;
  try {
    data = JSON.parse(body ?? '');
  } catch (error) {
    throw httpBadRequest(`Malformed JSON: ${(error as Error).message}`);
  }
  validateJson(data, schema);
  return data as T;
}

export function validateJson(data: unknown, schema: Schema): void {
  const validate = validator(schema);
  if (!validate(data)) {
    const error = validate.errors![0];
    throw httpBadRequest(`JSON does not validate: ${describe(error, data)}`);
  }
}
