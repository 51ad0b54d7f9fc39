const UUID = { type: 'string', pattern: '^[0-9a-fA-F-]{36}$' };
const EXTERNAL_ID = { type: 'string', minLength: 1, maxLength: 255 };
const list = (items: object) => ({ type: 'array', items, maxItems: 10000, uniqueItems: true });

/** Plan (the default) or apply the plan read before, quoting its hash. */
const APPLY = { apply: { type: 'boolean' }, plan_hash: { type: 'string', pattern: '^[0-9a-f]{32}$' } };

/** POST /ledger/revert */
export const REVERT_BODY = {
  type: 'object',
  properties: {
    request_id: EXTERNAL_ID,
    // Streams by name (provider-<uuid>, consumer-<uuid>) or by uuid.
    force_streams: list({ type: 'string', minLength: 1, maxLength: 255 }),
    ...APPLY,
  },
  required: ['request_id'],
  additionalProperties: false,
};

/** POST /ledger/restore */
export const RESTORE_BODY = {
  type: 'object',
  properties: {
    as_of: { type: 'string', minLength: 1, maxLength: 64 },
    providers: list(UUID),
    tree: { type: 'boolean' },
    with_consumers: { type: 'boolean' },
    consumers: list(UUID),
    projects: list(EXTERNAL_ID),
    aggregates: list(UUID),
    ...APPLY,
  },
  required: ['as_of'],
  additionalProperties: false,
};
