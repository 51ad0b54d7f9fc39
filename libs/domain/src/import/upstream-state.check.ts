import { isStandardResourceClass, isStandardTrait } from '../standard/standard-names.js';
import { byTreeLevel } from './import-plan.js';
import { UpstreamState } from './upstream-state.js';

/**
 * What would keep the import from reproducing the source exactly, one line each; empty when
 * nothing does. Upstream's own constraints make most of these impossible, but a hand-edited or
 * half-migrated database is what an operator may have, and it must be named, not imported wrong.
 */
export function checkUpstreamState(state: UpstreamState): string[] {
  const problems: string[] = [];
  const classes = new Set(state.resourceClasses.map((rc) => rc.name));
  const traits = new Set(state.traits.map((trait) => trait.name));
  const providers = new Set(state.providers.map((provider) => provider.uuid));
  const knownClass = (name: string) => classes.has(name) || isStandardResourceClass(name);
  for (const rc of state.resourceClasses) {
    if (!rc.name.startsWith('CUSTOM_')) problems.push(`resource class ${rc.name} is neither standard nor CUSTOM_`);
  }
  for (const trait of state.traits) {
    if (!trait.name.startsWith('CUSTOM_')) problems.push(`trait ${trait.name} is neither standard nor CUSTOM_`);
  }
  for (const provider of state.providers) {
    if (provider.parentUuid !== null && !providers.has(provider.parentUuid)) {
      problems.push(`resource provider ${provider.uuid}: its parent ${provider.parentUuid} is not in the source`);
    }
    for (const rc of Object.keys(provider.inventories)) {
      if (!knownClass(rc)) problems.push(`resource provider ${provider.uuid}: inventory of unknown resource class ${rc}`);
    }
    for (const trait of provider.traits) {
      if (!traits.has(trait) && !isStandardTrait(trait)) problems.push(`resource provider ${provider.uuid}: unknown trait ${trait}`);
    }
  }
  const placed = byTreeLevel(state.providers).reduce((n, level) => n + level.length, 0);
  if (placed !== state.providers.length && problems.length === 0) {
    problems.push(`${state.providers.length - placed} resource providers are not in any tree under a root (a parent cycle)`);
  }
  for (const consumer of state.consumers) {
    for (const [provider, resources] of Object.entries(consumer.allocations)) {
      if (!providers.has(provider)) problems.push(`consumer ${consumer.uuid}: allocation on unknown resource provider ${provider}`);
      for (const [rc, used] of Object.entries(resources)) {
        if (!knownClass(rc)) problems.push(`consumer ${consumer.uuid}: allocation of unknown resource class ${rc}`);
        if (!Number.isInteger(used) || used < 1) problems.push(`consumer ${consumer.uuid}: allocation of ${used} ${rc} on ${provider}`);
      }
    }
  }
  return problems;
}
