import { ConsumerState } from '../consumer/consumer.state.js';
import { ConsumerClaim } from './claim.js';

/** One (consumer, provider, class) line of a claim, as upstream's list of Allocation objects. */
export interface AllocationRow {
  readonly consumer: string;
  readonly provider: string;
  readonly resourceClass: string;
  /** 0 marks a holding being released by an empty claim; it is checked for inventory, never for capacity. */
  readonly used: number;
}

/**
 * A claim as the rows upstream's replace_all receives: the new holdings in request order, or, for
 * a consumer whose new set is empty, its current holdings at 0. Those rows decide which providers'
 * generations move: a provider only held before a non-empty claim moves nowhere, as upstream.
 */
export function claimRows(claims: readonly ConsumerClaim[], consumers: Readonly<Record<string, ConsumerState>>): AllocationRow[] {
  const rows: AllocationRow[] = [];
  for (const claim of claims) {
    const consumer = claim.consumerUuid;
    const wanted = Object.entries(claim.allocations);
    if (wanted.length > 0) {
      for (const [provider, resources] of wanted) {
        for (const [resourceClass, used] of Object.entries(resources)) rows.push({ consumer, provider, resourceClass, used });
      }
      continue;
    }
    const current = consumers[consumer];
    if (current?.status !== 'active') continue;
    for (const [provider, resources] of Object.entries(current.allocations)) {
      for (const resourceClass of Object.keys(resources)) rows.push({ consumer, provider, resourceClass, used: 0 });
    }
  }
  return rows;
}
