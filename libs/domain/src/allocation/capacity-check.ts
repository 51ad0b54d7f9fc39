import { capacity } from '../provider/inventory.js';
import { ActiveProvider } from '../provider/provider.state.js';
import { AllocationRow } from './allocation-rows.js';
import { ClaimForm } from './claim.js';
import {
  capacityExceeded, constraintsViolated, inClassIdOrder, invalidInventoryFailure, inventoryInvalid, noSuchClass, notFoundFailure,
} from './claim-messages.js';
import { unique } from '../shared/unique.js';

export interface CapacityFacts {
  readonly form: ClaimForm;
  /** The consumer named in the URL (PUT), for the wording of a 400. */
  readonly consumerUuid: string;
  readonly providers: Readonly<Record<string, ActiveProvider>>;
  /** Every consumer in the claim: their current holdings are replaced, so they do not count as used. */
  readonly claimants: ReadonlySet<string>;
  readonly unknownClasses: ReadonlySet<string>;
}

/** Units of a class held on a provider by consumers outside the claim. */
function usedByOthers(provider: ActiveProvider, rc: string, claimants: ReadonlySet<string>): number {
  let used = provider.usages[rc] ?? 0;
  for (const consumer of claimants) used -= provider.allocations[consumer]?.[rc] ?? 0;
  return used;
}

/**
 * A provider already over capacity in a class (reserved or allocation_ratio raised, total lowered
 * under existing allocations) still takes a claim that leaves that class's usage no higher than
 * before it: upstream's fix of bug 2104040 (commit 5ac4c70b), so consumers can shrink, move or
 * change project and other classes instead of being stuck. Usage before counts every consumer,
 * claimants included; a class nobody used there before is never over capacity "already".
 */
function noWorseThanBefore(provider: ActiveProvider, rc: string, after: number): boolean {
  return after <= (provider.usages[rc] ?? 0);
}

/**
 * upstream's _check_capacity_exceeded, in its order: unknown classes, providers with none of the
 * named classes, then row by row the missing inventory, min_unit/max_unit/step_size, and capacity
 * counting this row and every earlier row of the claim on the same provider and class (that sum
 * includes the row, so it alone decides).
 */
export function checkCapacity(rows: readonly AllocationRow[], facts: CapacityFacts): void {
  const unknown = rows.find((row) => facts.unknownClasses.has(row.resourceClass));
  if (unknown) throw notFoundFailure(facts.form, facts.consumerUuid, noSuchClass(unknown.resourceClass));

  const classes = new Set(rows.map((row) => row.resourceClass));
  const providers = unique(rows.map((row) => row.provider));
  const inventoriesOf = (uuid: string) => facts.providers[uuid]?.inventories ?? {};
  const missing = providers.filter((uuid) => ![...classes].some((rc) => rc in inventoriesOf(uuid)));
  if (missing.length > 0) {
    throw invalidInventoryFailure(inventoryInvalid(inClassIdOrder(classes).join(', '), missing.join(', ')));
  }

  const claimed = new Map<string, number>();
  for (const { provider: uuid, resourceClass: rc, used: amount } of rows) {
    const key = `${uuid} ${rc}`;
    const sum = (claimed.get(key) ?? 0) + amount;
    claimed.set(key, sum);
    if (amount === 0) continue;
    const provider = facts.providers[uuid];
    const inventory = inventoriesOf(uuid)[rc];
    if (!inventory) throw invalidInventoryFailure(inventoryInvalid(rc, uuid));
    if (amount < inventory.min_unit || amount > inventory.max_unit || amount % inventory.step_size !== 0) {
      throw invalidInventoryFailure(constraintsViolated(rc, uuid));
    }
    const used = usedByOthers(provider, rc, facts.claimants);
    const limit = capacity(inventory);
    const after = used + sum;
    if (after > limit && !noWorseThanBefore(provider, rc, after)) throw invalidInventoryFailure(capacityExceeded(rc, uuid));
  }
}
