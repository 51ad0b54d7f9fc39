import type { RecordedEvent } from '#event-store/index.js';
import { evolveProvider, initialProviderState, ProviderEvent } from '#domain/index.js';
import { ProjectTally } from './project-tally.js';
import { NameCatalog } from './name-catalog.js';
import { ProviderIndex } from './provider-index.js';

const PROVIDER = 'provider-';
const RESOURCE_CLASS = 'resource-class-';
const TRAIT = 'trait-';
const CONSUMER = 'consumer-';

/**
 * Whether folding the event moves nothing but usage (a consumer's holdings, a provider's
 * allocations and generation) or nothing the index keeps at all. Such a write changes no
 * provider set, list or tree a search walks, so a search may let it in while it pauses
 * (view-lease.ts).
 */
export function movesOnlyUsage(event: RecordedEvent<any>): boolean {
  const { stream, type } = event;
  if (stream.startsWith(CONSUMER)) return true;
  if (stream.startsWith(PROVIDER)) return type === 'ProviderAllocationsChanged';
  return !stream.startsWith(RESOURCE_CLASS) && !stream.startsWith(TRAIT);
}

/**
 * Folds one logged event into the candidate index. Provider events go through the domain's
 * own evolveProvider, so every event type it learns (allocations included) is seen here too.
 */
export function applyEvent(index: ProviderIndex, names: NameCatalog, event: RecordedEvent<any>, projects?: ProjectTally): void {
  const { stream, type, data } = event;
  if (stream.startsWith(CONSUMER)) {
    if (!projects) return;
    if (type === 'ConsumerAllocationsReplaced') projects.set(stream.slice(CONSUMER.length), data.project_id, data.allocations);
    else if (type === 'ConsumerRemoved') projects.delete(stream.slice(CONSUMER.length));
    return;
  }
  if (stream.startsWith(PROVIDER)) {
    const uuid = stream.slice(PROVIDER.length);
    const before = index.stateOf(uuid) ?? initialProviderState();
    // A type this build does not know leaves the state as it was.
    const after = evolveProvider(before, event as unknown as ProviderEvent) ?? before;
    if (after !== before) index.put(uuid, after);
    return;
  }
  if (stream.startsWith(RESOURCE_CLASS)) {
    if (type === 'ResourceClassCreated') names.addClass(data.name);
    else if (type === 'ResourceClassRenamed' || type === 'ResourceClassDeleted') names.removeClass(data.name);
    return;
  }
  if (stream.startsWith(TRAIT)) {
    if (type === 'TraitCreated') names.addTrait(data.name);
    else if (type === 'TraitDeleted') names.removeTrait(data.name);
  }
}
