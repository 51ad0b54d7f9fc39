import { Schema, validator } from '../json-body.js';
import { httpBadRequest } from '../placement-error.js';
import { validationMessage } from '../validation-message.js';

/** webob's `req.GET[key]`: a repeated key answers its last value. */
export function lastValue(query: URLSearchParams, key: string): string | undefined {
  const values = query.getAll(key);
  return values.length > 0 ? values[values.length - 1] : undefined;
}

/**
 * util.validate_query_params: upstream validates `dict(req.GET)`, where a repeated key keeps
 * its last value, against the microversion's schema. Returns that dict.
 */
export function validateQueryParams(query: URLSearchParams, schema: Schema): Record<string, string> {
  const single: Record<string, string> = {};
  for (const key of query.keys()) single[key] = lastValue(query, key)!;
  const validate = validator(schema);
  if (!validate(single)) {
    throw httpBadRequest(`Invalid query string parameters: ${validationMessage(validate.errors![0], single, schema)}`);
  }
  return single;
}
