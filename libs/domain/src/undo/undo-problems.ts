import { capacity } from '../provider/inventory.js';
import type { DesiredConsumer, DesiredProvider } from './desired.js';
import { aliveAfter, finalProviders, holdingsAfter, usageOf, World } from './final-world.js';
import type { UndoInput } from './undo-input.js';

/** Problems by stream uuid: a provider or consumer with any is refused (left as it is). */
export type Problems = Map<string, string[]>;

const KEEP = { kind: 'keep' } as const;

/**
 * Refuses, one round after another, what cannot be taken back as it was: each refusal can only
 * take more away (a provider left out leaves its children and claimants without it), so rounds
 * end once one refuses nothing new.
 */
export function findProblems(input: UndoInput, providers: Map<string, DesiredProvider>, consumers: Map<string, DesiredConsumer>): Problems {
  const problems: Problems = new Map();
  const refuse = (uuid: string, why: string) => problems.set(uuid, [...(problems.get(uuid) ?? []), why]);
  const unknownClasses = new Set(input.unknownClasses);
  const unknownTraits = new Set(input.unknownTraits);
  for (let changed = true; changed;) {
    changed = false;
    // What the plan would do with the streams refused so far left as they are.
    const accepted = <D>(map: Map<string, D>) => new Map<string, D | typeof KEEP>([...map].map(([uuid, d]) => [uuid, problems.has(uuid) ? KEEP : d]));
    const world: World = { providersNow: input.providersNow, consumersNow: input.consumersNow, providers: accepted(providers), consumers: accepted(consumers) };
    const final = finalProviders(world);
    const before = problems.size;
    for (const [uuid, desired] of providers) {
      if (problems.has(uuid)) continue;
      if (desired.kind === 'active') {
        const holder = input.nameHolders[desired.name] ?? null;
        if (holder !== null && holder !== uuid) refuse(uuid, `name "${desired.name}" is now held by provider ${holder}`);
        if (desired.parentUuid !== null && !aliveAfter(world, desired.parentUuid)) refuse(uuid, `parent provider ${desired.parentUuid} no longer exists`);
        for (const rc of Object.keys(desired.inventories)) if (unknownClasses.has(rc)) refuse(uuid, `resource class ${rc} was deleted since`);
        for (const trait of desired.traits) if (unknownTraits.has(trait)) refuse(uuid, `trait ${trait} was deleted since`);
        const holdings = final.get(uuid)?.holdings ?? {};
        const now = input.providersNow[uuid];
        const busy = Object.keys(now?.status === 'active' ? now.inventories : {}).filter((rc) => !(rc in desired.inventories) && usageOf(holdings, rc) > 0);
        if (busy.length > 0) refuse(uuid, `inventory for ${busy.join(', ')} is in use and would be removed`);
      } else if (desired.kind === 'gone') {
        // A child outside the plan exists now and stays; one in it stays unless the plan takes it away too.
        const children = (input.childrenNow[uuid] ?? []).filter((child) => !world.providers.has(child) || aliveAfter(world, child));
        if (children.length > 0) refuse(uuid, `it has child providers (${children.join(', ')})`);
        if (Object.keys(final.get(uuid)?.holdings ?? {}).length > 0) refuse(uuid, 'it has allocations');
      }
    }
    for (const [uuid, desired] of consumers) {
      if (problems.has(uuid) || desired.kind !== 'active') continue;
      for (const [provider, holding] of Object.entries(desired.allocations)) {
        if (!aliveAfter(world, provider)) refuse(uuid, `provider ${provider} no longer exists`);
        for (const rc of Object.keys(holding)) if (unknownClasses.has(rc)) refuse(uuid, `resource class ${rc} was deleted since`);
      }
    }
    // Over-commit refuses one consumer a round, the last in uuid order first: those before it may
    // fit without it, so what is free goes to consumers in uuid order.
    if (problems.size === before) {
      for (const [uuid] of [...consumers].sort(([a], [b]) => (a < b ? 1 : -1))) {
        if (problems.has(uuid)) continue;
        const found = overCommits(world, final, uuid);
        if (found.length === 0) continue;
        found.forEach((why) => refuse(uuid, why));
        break;
      }
    }
    changed = problems.size > before;
  }
  return problems;
}

/**
 * Where the consumer would take more than it holds now of a class the provider cannot give: no
 * inventory of it, or usage past capacity. A provider already past capacity still takes what leaves
 * its usage no higher than now, as a claim does (upstream bug 2104040).
 */
function overCommits(world: World, final: ReturnType<typeof finalProviders>, consumer: string): string[] {
  const now = world.consumersNow[consumer];
  const held = now?.status === 'active' ? now.allocations : {};
  const found: string[] = [];
  for (const [provider, holding] of Object.entries(holdingsAfter(world, consumer))) {
    const target = final.get(provider);
    if (!target) continue;
    for (const [rc, units] of Object.entries(holding)) {
      if (units <= (held[provider]?.[rc] ?? 0)) continue;
      const inventory = target.inventories[rc];
      if (!inventory) {
        found.push(`provider ${provider} has no inventory of ${rc} now`);
        continue;
      }
      const used = usageOf(target.holdings, rc);
      const current = world.providersNow[provider];
      const usedNow = current?.status === 'active' ? current.usages[rc] ?? 0 : 0;
      if (used > capacity(inventory) && used > usedNow) {
        found.push(`would over-commit ${rc} on provider ${provider}: ${used} used of a capacity of ${capacity(inventory)} (capacity was taken since)`);
      }
    }
  }
  return found;
}
