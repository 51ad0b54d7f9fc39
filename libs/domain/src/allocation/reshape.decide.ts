import { checkConsumerGeneration } from '../consumer/consumer-generation.js';
import { ConsumerState } from '../consumer/consumer.state.js';
import { badRequest, conflict } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { Inventories } from '../provider/inventory.js';
import { ProviderEvent } from '../provider/provider.events.js';
import { ProviderState, evolveProvider } from '../provider/provider.state.js';
import { ClaimDecision, ClaimState, ConsumerClaim } from './claim.js';
import { decideClaim } from './claim.decide.js';
import { inClassIdOrder, noSuchClass, notFoundFailure, providerMissing } from './claim-messages.js';

/** One provider's new inventory in POST /reshaper, with the generation the client last saw. */
export interface ReshapedInventory {
  readonly uuid: string;
  readonly generation: number;
  readonly inventories: Inventories;
}

/** POST /reshaper (1.30): inventories and allocations move together, all or nothing. */
export interface Reshape {
  readonly type: 'Reshape';
  readonly inventories: readonly ReshapedInventory[];
  readonly claims: readonly ConsumerClaim[];
  /** Looked up by the handler: classes named in inventories or allocations that do not exist. */
  readonly unknownClasses: readonly string[];
}

const ABSENT: ConsumerState = { status: 'absent' };

/**
 * upstream's reshaper handler and objects/reshaper.reshape, step by step: provider and generation
 * checks, consumer generations; then each provider gets an interim inventory (old plus new, so
 * neither can an allocation lose its inventory nor land on a missing one), the allocations are
 * replaced against it, and the final inventory is set. Each inventory step moves the generation.
 */
export function decideReshape(command: Reshape, state: ClaimState): ClaimDecision {
  for (const { uuid, generation } of command.inventories) {
    const provider = state.providers[uuid];
    if (provider?.status !== 'active') {
      throw badRequest(
        `Resource provider ${uuid} in inventories not found: No resource provider with uuid ${uuid} found`,
        ErrorCode.RESOURCE_PROVIDER_NOT_FOUND,
      );
    }
    if (provider.generation !== generation) {
      throw conflict(
        `resource provider generation conflict for provider ${uuid}: actual: ${provider.generation}, given: ${generation}`,
        ErrorCode.CONCURRENT_UPDATE,
      );
    }
  }
  for (const claim of command.claims) checkConsumerGeneration(state.consumers[claim.consumerUuid] ?? ABSENT, claim.expectedGeneration);
  for (const claim of command.claims) {
    for (const uuid of Object.keys(claim.allocations)) {
      if (state.providers[uuid]?.status !== 'active') throw badRequest(providerMissing(uuid));
    }
  }

  const providers: Record<string, ProviderState> = { ...state.providers };
  const events: Record<string, ProviderEvent[]> = {};
  const record = (uuid: string, event: ProviderEvent) => {
    (events[uuid] ??= []).push(event);
    providers[uuid] = evolveProvider(providers[uuid], event);
  };
  const unknown = new Set(command.unknownClasses);
  for (const { uuid, inventories } of command.inventories) {
    // Upstream skips the interim step for an empty inventory: it would only replace the old with itself.
    if (Object.keys(inventories).length === 0) continue;
    const missing = Object.keys(inventories).find((rc) => unknown.has(rc));
    if (missing) throw notFoundFailure('reshape', '', noSuchClass(missing));
    record(uuid, inventoriesSet(providers[uuid], { ...activeInventories(providers[uuid]), ...inventories }));
  }

  const claimed = decideClaim({ type: 'ClaimAllocations', form: 'reshape', claims: command.claims, unknownClasses: command.unknownClasses }, {
    consumers: state.consumers,
    providers,
  });
  for (const [uuid, changes] of Object.entries(claimed.providers)) for (const event of changes) record(uuid, event);

  for (const { uuid, inventories } of command.inventories) {
    const provider = providers[uuid];
    const removed = Object.keys(activeInventories(provider)).filter((rc) => !(rc in inventories));
    const busy = removed.filter((rc) => provider.status === 'active' && (provider.usages[rc] ?? 0) > 0);
    if (busy.length > 0) {
      throw conflict(
        `update conflict: Inventory for '${inClassIdOrder(busy).join(', ')}' on resource provider '${uuid}' in use.`,
        ErrorCode.INVENTORY_INUSE,
      );
    }
    record(uuid, inventoriesSet(provider, inventories));
  }
  return { consumers: claimed.consumers, providers: events };
}

const activeInventories = (provider: ProviderState): Inventories => (provider.status === 'active' ? provider.inventories : {});

function inventoriesSet(provider: ProviderState, inventories: Inventories): ProviderEvent {
  const generation = provider.status === 'active' ? provider.generation + 1 : 0;
  return { type: 'InventoriesSet', data: { inventories, generation, v: 1 } };
}
