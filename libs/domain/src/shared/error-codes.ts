/** Upstream's error codes (placement-api-ref/errors.inc), verbatim: clients match on them. */
export const ErrorCode = {
  UNDEFINED: 'placement.undefined_code',
  INVENTORY_INUSE: 'placement.inventory.inuse',
  CONCURRENT_UPDATE: 'placement.concurrent_update',
  DUPLICATE_NAME: 'placement.duplicate_name',
  PROVIDER_IN_USE: 'placement.resource_provider.inuse',
  PROVIDER_CANNOT_DELETE_PARENT: 'placement.resource_provider.cannot_delete_parent',
  RESOURCE_PROVIDER_NOT_FOUND: 'placement.resource_provider.not_found',
  ILLEGAL_DUPLICATE_QUERYPARAM: 'placement.query.duplicate_key',
  QUERYPARAM_BAD_VALUE: 'placement.query.bad_value',
  QUERYPARAM_MISSING_VALUE: 'placement.query.missing_value',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
