import { DomainError, badRequest, conflict } from '../shared/domain-error.js';
import { STANDARD_RESOURCE_CLASSES } from '../standard/standard-names.js';
import { ClaimForm } from './claim.js';

/**
 * Upstream's handlers wrap the same object-layer exceptions differently per endpoint:
 * a NotFound (unknown class) is a 400 with an endpoint-specific prefix, an
 * InvalidInventory (no such inventory, constraints, capacity) a 409 that reads the same everywhere.
 */
export function notFoundFailure(form: ClaimForm, consumerUuid: string, reason: string): DomainError {
  switch (form) {
    case 'consumer': return badRequest(`Unable to allocate inventory for consumer ${consumerUuid}: ${reason}`);
    case 'batch': return badRequest(`Unable to allocate inventory ${reason}`);
    case 'reshape': return badRequest(`malformed reshaper data: ${reason}`);
  }
}

export const invalidInventoryFailure = (reason: string): DomainError => conflict(`Unable to allocate inventory: ${reason}`);

export const noSuchClass = (rc: string) => `No such resource class ${rc}.`;
export const inventoryInvalid = (classes: string, providers: string) =>
  `Inventory for '${classes}' on resource provider '${providers}' invalid.`;
export const capacityExceeded = (rc: string, provider: string) =>
  `Unable to create allocation for '${rc}' on resource provider '${provider}'. The requested amount would exceed the capacity.`;
export const constraintsViolated = (rc: string, provider: string) =>
  `Unable to create allocation for '${rc}' on resource provider '${provider}'. The requested amount would violate inventory constraints.`;
export const providerMissing = (provider: string) => `Allocation for resource provider '${provider}' that does not exist.`;

const standardIndex = new Map(STANDARD_RESOURCE_CLASSES.map((name, index) => [name, index]));

/** Upstream joins a Python set of class ids: small ids come out ascending, custom ones (10000+) after. */
export function inClassIdOrder(classes: Iterable<string>): string[] {
  const rank = (rc: string) => standardIndex.get(rc) ?? Number.MAX_SAFE_INTEGER;
  return [...classes].sort((a, b) => rank(a) - rank(b));
}
