import { consumerStream } from '../consumer/consumer.events.js';
import type { ProviderHolding } from '../provider/provider.events.js';
import { providerStream } from '../provider/provider.events.js';
import { DesiredConsumer, DesiredProvider, desiredConsumer, desiredProvider } from './desired.js';
import { holdingsAfter, World } from './final-world.js';
import { consumerEvents, holdingChangesOn, providerEvents } from './undo-events.js';
import type { UndoInput } from './undo-input.js';
import { findProblems } from './undo-problems.js';
import { consumerSummary, providerSummary } from './summaries.js';
import type { StreamPlan, UndoPlan } from './undo-plan.types.js';

const ABSENT = { status: 'absent' } as const;
const KEEP = { kind: 'keep' } as const;

/**
 * The plan of an undo (a revert or a restore): per stream, the facts that take it from now back
 * to its target, and the problems that keep it as it is. Pure: the same input gives the same plan,
 * which is what lets `--apply` check it did not drift since it was printed.
 */
export function planUndo(input: UndoInput): UndoPlan {
  const providers = new Map<string, DesiredProvider>(Object.entries(input.providerTargets).map(([uuid, target]) =>
    [uuid, desiredProvider(input.mode, input.providersNow[uuid] ?? ABSENT, target)]));
  const consumers = new Map<string, DesiredConsumer>(Object.entries(input.consumerTargets).map(([uuid, target]) =>
    [uuid, desiredConsumer(input.mode, input.consumersNow[uuid] ?? ABSENT, target)]));
  const problems = findProblems(input, providers, consumers);
  const accepted = <D>(map: Map<string, D>) => new Map([...map].map(([uuid, d]) => [uuid, problems.has(uuid) ? (KEEP as D) : d]));
  const world: World = { providersNow: input.providersNow, consumersNow: input.consumersNow, providers: accepted(providers), consumers: accepted(consumers) };

  const moves = new Map<string, { before: Readonly<Record<string, ProviderHolding>>; after: Readonly<Record<string, ProviderHolding>> }>();
  for (const uuid of consumers.keys()) {
    const now = input.consumersNow[uuid] ?? ABSENT;
    moves.set(uuid, { before: now.status === 'active' ? now.allocations : {}, after: holdingsAfter(world, uuid) });
  }

  const streams: StreamPlan[] = [];
  const providerUuids = treeOrder([...new Set([...providers.keys(), ...Object.keys(input.providersNow)])].sort(), world, input);
  for (const uuid of providerUuids) {
    const now = input.providersNow[uuid] ?? ABSENT;
    const target = input.providerTargets[uuid];
    const desired = world.providers.get(uuid) ?? KEEP;
    const events = providerEvents(uuid, now, desired, target?.lastGeneration ?? null, holdingChangesOn(uuid, moves));
    if (!target && events.length === 0) continue;
    streams.push({
      stream: providerStream(uuid), kind: 'provider', uuid, now: providerSummary(now), then: target ? providerSummary(target.then) : null,
      events, problems: problems.get(uuid) ?? [],
    });
  }
  for (const uuid of [...consumers.keys()].sort()) {
    const now = input.consumersNow[uuid] ?? ABSENT;
    const target = input.consumerTargets[uuid];
    streams.push({
      stream: consumerStream(uuid), kind: 'consumer', uuid, now: consumerSummary(now), then: consumerSummary(target.then),
      events: consumerEvents(now, world.consumers.get(uuid) ?? KEEP, target.lastGeneration), problems: problems.get(uuid) ?? [],
    });
  }
  return { streams };
}

/**
 * Providers in the order their streams are appended: parents made again before their children
 * (a child's root is read from its parent as it is projected), children taken away before
 * their parents.
 */
function treeOrder(uuids: string[], world: World, input: UndoInput): string[] {
  const parentOf = (uuid: string): string | null => {
    const desired = world.providers.get(uuid);
    if (desired?.kind === 'active') return desired.parentUuid;
    const now = input.providersNow[uuid];
    return now?.status === 'active' ? now.parentUuid : null;
  };
  const depth = (uuid: string) => {
    const seen = new Set<string>([uuid]);
    let level = 0;
    for (let parent = parentOf(uuid); parent && !seen.has(parent); parent = parentOf(parent)) {
      seen.add(parent);
      level++;
    }
    return level;
  };
  const gone = (uuid: string) => world.providers.get(uuid)?.kind === 'gone';
  const staying = uuids.filter((uuid) => !gone(uuid)).sort((a, b) => depth(a) - depth(b));
  const leaving = uuids.filter(gone).sort((a, b) => depth(b) - depth(a));
  return [...staying, ...leaving];
}
