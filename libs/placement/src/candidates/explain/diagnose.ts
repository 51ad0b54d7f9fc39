import { ActiveProvider, capacity } from '#domain/index.js';
import { CandidateRequest, isGranular, RequestGroup } from '../request.js';

/** The filters of one request group, in the order an operator reads them. */
const GROUP_STEPS = ['resources', 'capacity', 'traits', 'aggregates', 'in_tree', 'root_required'] as const;
type GroupStep = (typeof GROUP_STEPS)[number];

export interface Exclusion {
  readonly step: GroupStep;
  readonly reason: string;
}

/** Every live provider's state by uuid, as the candidate index holds them. */
export type ProviderStates = ReadonlyMap<string, ActiveProvider>;

const list = (items: readonly string[]) => `[${items.join(', ')}]`;

/** The root of a provider's tree; a parent missing from the states ends the walk. */
function rootOf(states: ProviderStates, uuid: string): ActiveProvider | undefined {
  let node = states.get(uuid);
  for (let depth = 0; node?.parentUuid && depth < states.size; depth++) {
    const parent = states.get(node.parentUuid);
    if (!parent) break;
    node = parent;
  }
  return node;
}

function resourcesStep(provider: ActiveProvider, group: RequestGroup): string | null {
  const missing = group.resources.map(([rc]) => rc).filter((rc) => provider.inventories[rc] === undefined);
  // The unsuffixed group may take its classes from several providers of a tree: one is enough here.
  const excluded = isGranular(group) ? missing.length > 0 : missing.length === group.resources.length && missing.length > 0;
  return excluded ? `has no inventory of ${missing.join(', ')}` : null;
}

function capacityStep(provider: ActiveProvider, group: RequestGroup): string | null {
  for (const [rc, amount] of group.resources) {
    const inv = provider.inventories[rc];
    if (inv === undefined) continue;
    const used = provider.usages[rc] ?? 0;
    if (amount < inv.min_unit) return `${rc} needs ${amount}, below min_unit ${inv.min_unit}`;
    if (amount > inv.max_unit) return `${rc} needs ${amount}, above max_unit ${inv.max_unit}`;
    if (amount % inv.step_size !== 0) return `${rc} needs ${amount}, not a multiple of step_size ${inv.step_size}`;
    const free = capacity(inv) - used;
    if (amount > free) {
      const ratio = Number.isInteger(inv.allocation_ratio) ? inv.allocation_ratio.toFixed(1) : String(inv.allocation_ratio);
      return `${rc} needs ${amount}, ${free} free (total ${inv.total}, reserved ${inv.reserved}, ratio ${ratio}, used ${used})`;
    }
  }
  return null;
}

function traitsStep(provider: ActiveProvider, group: RequestGroup): string | null {
  const has = new Set(provider.traits);
  for (const anyOf of group.requiredTraits) {
    if (!anyOf.some((t) => has.has(t))) return anyOf.length === 1 ? `lacks ${anyOf[0]}` : `lacks all of ${list(anyOf)}`;
  }
  const forbidden = group.forbiddenTraits.filter((t) => has.has(t));
  return forbidden.length > 0 ? `has forbidden ${forbidden.join(', ')}` : null;
}

function aggregatesStep(provider: ActiveProvider, group: RequestGroup): string | null {
  const inAggregates = new Set(provider.aggregates);
  for (const anyOf of group.memberOf) if (!anyOf.some((a) => inAggregates.has(a))) return `in none of ${list(anyOf)}`;
  const forbidden = group.forbiddenAggregates.filter((a) => inAggregates.has(a));
  return forbidden.length > 0 ? `in forbidden aggregate ${forbidden.join(', ')}` : null;
}

function inTreeStep(states: ProviderStates, provider: ActiveProvider, group: RequestGroup): string | null {
  if (group.inTree === null) return null;
  const wanted = rootOf(states, group.inTree);
  if (!wanted) return `in_tree provider ${group.inTree} does not exist`;
  return rootOf(states, provider.uuid)?.uuid === wanted.uuid ? null : `not in the tree of ${group.inTree}`;
}

function rootRequiredStep(states: ProviderStates, provider: ActiveProvider, request: CandidateRequest): string | null {
  const root = rootOf(states, provider.uuid)!;
  const has = new Set(root.traits);
  const missing = request.rootRequired.filter((t) => !has.has(t));
  if (missing.length > 0) return `root ${root.uuid} lacks ${missing.join(', ')}`;
  const forbidden = request.rootForbidden.filter((t) => has.has(t));
  return forbidden.length > 0 ? `root ${root.uuid} has forbidden ${forbidden.join(', ')}` : null;
}

/**
 * The first filter of one request group that turns this provider away, with why; null when it
 * passes them all. A provider is judged on its own: sharing providers and the spreading of the
 * unsuffixed group over a tree are left to the search, whose candidates say the rest.
 */
export function firstExclusion(states: ProviderStates, uuid: string, group: RequestGroup, request: CandidateRequest): Exclusion | null {
  const provider = states.get(uuid);
  if (!provider) return { step: 'resources', reason: 'no such provider' };
  const checks: Record<GroupStep, () => string | null> = {
    resources: () => resourcesStep(provider, group),
    capacity: () => capacityStep(provider, group),
    traits: () => traitsStep(provider, group),
    aggregates: () => aggregatesStep(provider, group),
    in_tree: () => inTreeStep(states, provider, group),
    root_required: () => rootRequiredStep(states, provider, request),
  };
  for (const step of GROUP_STEPS) {
    const reason = checks[step]();
    if (reason !== null) return { step, reason };
  }
  return null;
}

export interface StepCount {
  readonly step: GroupStep;
  readonly remaining: number;
}

/** How many providers are left after each filter of a group, each applied to what the last left. */
export function groupFunnel(states: ProviderStates, group: RequestGroup, request: CandidateRequest): StepCount[] {
  const firstOut = new Map<GroupStep, number>(GROUP_STEPS.map((step) => [step, 0]));
  for (const uuid of states.keys()) {
    const out = firstExclusion(states, uuid, group, request);
    if (out) firstOut.set(out.step, firstOut.get(out.step)! + 1);
  }
  let remaining = states.size;
  return GROUP_STEPS.map((step) => ({ step, remaining: (remaining -= firstOut.get(step)!) }));
}
