import { ActiveProvider, capacity, Inventory } from '#domain/index.js';
import type { ProviderIndex, ProviderNode } from '#placement/candidates/index/provider-index.js';

/** One class of one provider: its inventory record and what is taken and left of it. */
interface InventoryFigures extends Inventory {
  /** (total - reserved) x allocation_ratio, truncated as upstream does. */
  readonly capacity: number;
  readonly used: number;
  /** capacity - used; negative when an inventory shrank under its allocations. */
  readonly free: number;
}

interface TreeProvider {
  readonly uuid: string;
  readonly name: string;
  readonly parent_provider_uuid: string | null;
  /** 0 for the root: the console indents by it. */
  readonly depth: number;
  readonly generation: number;
  readonly inventories: Readonly<Record<string, InventoryFigures>>;
  readonly traits: readonly string[];
  readonly aggregates: readonly string[];
  readonly consumers: readonly { readonly consumer_uuid: string; readonly resources: Readonly<Record<string, number>> }[];
}

export interface ProviderTreeView {
  readonly provider_uuid: string;
  readonly root_provider_uuid: string;
  /** Parents before children, siblings by name, so the page can draw it top to bottom. */
  readonly providers: readonly TreeProvider[];
}

const byName = (a: ProviderNode, b: ProviderNode) => a.state.name.localeCompare(b.state.name) || a.uuid.localeCompare(b.uuid);

function figures(state: ActiveProvider): Record<string, InventoryFigures> {
  const result: Record<string, InventoryFigures> = {};
  for (const resourceClass of Object.keys(state.inventories).sort()) {
    const inventory = state.inventories[resourceClass];
    const used = state.usages[resourceClass] ?? 0;
    result[resourceClass] = { ...inventory, capacity: capacity(inventory), used, free: capacity(inventory) - used };
  }
  return result;
}

/** Of the consumers holding allocations on a provider, those the caller may see. */
export type ShownHolders = (consumers: readonly string[]) => readonly string[];

function present(node: ProviderNode, depth: number, shown: ShownHolders): TreeProvider {
  const { state } = node;
  return {
    uuid: node.uuid, name: state.name, parent_provider_uuid: state.parentUuid, depth, generation: state.generation,
    inventories: figures(state), traits: [...state.traits].sort(), aggregates: [...state.aggregates].sort(),
    consumers: shown(Object.keys(state.allocations).sort()).map((consumer) => ({ consumer_uuid: consumer, resources: state.allocations[consumer] })),
  };
}

/**
 * The whole tree holding `uuid`, each provider with what the console draws of it, in one answer
 * from the candidate index: the page never asks once per provider, however wide the tree.
 */
export function providerTreeView(index: ProviderIndex, uuid: string, shown: ShownHolders = (consumers) => consumers): ProviderTreeView | null {
  const asked = index.get(uuid);
  if (!asked) return null;
  const providers: TreeProvider[] = [];
  const walk = (node: ProviderNode, depth: number) => {
    providers.push(present(node, depth, shown));
    for (const child of [...node.children].sort(byName)) walk(child, depth + 1);
  };
  walk(asked.root, 0);
  return { provider_uuid: uuid, root_provider_uuid: asked.root.uuid, providers };
}
