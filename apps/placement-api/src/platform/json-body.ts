import { Ajv, ValidateFunction } from 'ajv';
import { validationMessage } from './validation-message.js';
import { httpBadRequest } from './placement-error.js';
import { hostileJsonReason } from './hostile-json.js';

/** uuidutils.is_uuid_like: 32 hex digits, dashes and braces optional. */
export function isUuidLike(value: string): boolean {
  return /^[0-9a-f]{32}$/i.test(value.replace(/^urn:uuid:/i, '').replace(/[{}-]/g, ''));
}

const ajv = new Ajv({ allErrors: false, strict: false });
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

/** Parses and validates a JSON body as upstream's util.extract_json does. */
export function extractJson<T = any>(body: string | undefined, schema: Schema): T {
  let data: unknown;
  try {
    data = JSON.parse(body ?? '');
  } catch (error) {
    throw httpBadRequest(`Malformed JSON: ${(error as Error).message}`);
  }
  // Before validation: the validation message prints the value, which must stay printable.
  const hostile = hostileJsonReason(data);
  if (hostile) throw httpBadRequest(`Malformed JSON: ${hostile}`);
  validateJson(data, schema);
  return data as T;
}

export function validateJson(data: unknown, schema: Schema): void {
  const validate = validator(schema);
  if (!validate(data)) {
    const error = validate.errors![0];
    throw httpBadRequest(`JSON does not validate: ${validationMessage(error, data, schema)}`);
  }
}
