import { STANDARD_TRAITS } from '#domain/index.js';
import { seededRandom } from '../support/seeded-random.js';

/** One event of a synthetic transaction; the writer numbers stream revisions. */
export interface SyntheticEvent {
  readonly stream: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

export interface LogShape {
  /** Stop once at least this many events were generated. */
  readonly events: number;
  readonly seed?: number;
  /** Compute nodes (roots); a fifth of them get a child provider. */
  readonly providers?: number;
  /** Consumers holding allocations at once, at most. */
  readonly liveConsumers?: number;
}

const uuid = (kind: string, n: number) => `${kind}0000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

interface Provider { uuid: string; name: string; parent: string | null; generation: number; holders: Map<string, Record<string, number>>; deleted: boolean }
interface Consumer { uuid: string; generation: number; provider: string; resources: Record<string, number>; project: string; user: string }

/**
 * A cloud's life as Placement would log it: custom classes and traits (some renamed or deleted),
 * compute nodes with inventories, traits, aggregates and nested children, then instances
 * claiming, resizing, moving and leaving, with the odd provider renamed, re-parented, resized
 * or retired. Every event type the projections handle occurs; the data shapes are the domain's.
 */
export function* syntheticLog(shape: LogShape): Generator<SyntheticEvent[]> {
  const r = seededRandom(shape.seed ?? 42);
  const providerCount = shape.providers ?? 2000;
  const liveTarget = shape.liveConsumers ?? providerCount * 8;
  let emitted = 0;
  const tx = (events: SyntheticEvent[]) => { emitted += events.length; return events; };

  const classes: string[] = [];
  for (let i = 0; i < 12; i++) {
    const name = `CUSTOM_CLASS_${i}`;
    classes.push(name);
    yield tx([{ stream: `resource-class-${name}`, type: 'ResourceClassCreated', data: { name, v: 1 } }]);
  }
  for (const i of [3, 7]) {
    const from = classes[i], to = `${from}_RENAMED`;
    classes[i] = to;
    yield tx([
      { stream: `resource-class-${from}`, type: 'ResourceClassRenamed', data: { name: from, to, v: 1 } },
      { stream: `resource-class-${to}`, type: 'ResourceClassCreated', data: { name: to, renamed_from: from, v: 1 } },
    ]);
  }
  const gone = classes.splice(10, 1)[0];
  yield tx([{ stream: `resource-class-${gone}`, type: 'ResourceClassDeleted', data: { name: gone, v: 1 } }]);
  const traits: string[] = [];
  for (let i = 0; i < 30; i++) {
    traits.push(`CUSTOM_TRAIT_${i}`);
    yield tx([{ stream: `trait-CUSTOM_TRAIT_${i}`, type: 'TraitCreated', data: { name: `CUSTOM_TRAIT_${i}`, v: 1 } }]);
  }
  yield tx([{ stream: 'trait-CUSTOM_TRAIT_29', type: 'TraitDeleted', data: { name: 'CUSTOM_TRAIT_29', v: 1 } }]);
  traits.pop();
  const aggregates = Array.from({ length: 40 }, (_, i) => uuid('e', i));

  const providers: Provider[] = [];
  const event = (p: Provider, type: string, data: Record<string, unknown>): SyntheticEvent =>
    ({ stream: `provider-${p.uuid}`, type, data: { ...data, generation: p.generation, v: 1 } });
  const inventory = (total: number, ratio = 1) => ({ total, reserved: 0, min_unit: 1, max_unit: total, step_size: 1, allocation_ratio: ratio });
  const inventoriesOf = (p: Provider) => p.parent
    ? { [classes[p.name.length % classes.length]]: inventory(8 + r.int(8)) }
    : { VCPU: inventory(64, 4), MEMORY_MB: inventory(262144, 1.5), DISK_GB: inventory(4000) };
  for (let i = 0; i < providerCount; i++) {
    const root: Provider = { uuid: uuid('a', i), name: `compute-${i}`, parent: null, generation: 0, holders: new Map(), deleted: false };
    const family = [root];
    if (i % 5 === 0) family.push({ uuid: uuid('b', i), name: `compute-${i}-nic`, parent: root.uuid, generation: 0, holders: new Map(), deleted: false });
    for (const p of family) {
      providers.push(p);
      yield tx([event(p, 'ResourceProviderCreated', { uuid: p.uuid, name: p.name, parent_provider_uuid: p.parent })]);
      p.generation++;
      yield tx([event(p, 'InventoriesSet', { inventories: inventoriesOf(p) })]);
      p.generation++;
      yield tx([event(p, 'TraitsSet', { traits: [r.pick(STANDARD_TRAITS), r.pick(traits), r.pick(traits)].filter((t, k, all) => all.indexOf(t) === k) })]);
      p.generation++;
      yield tx([event(p, 'AggregatesSet', { aggregates: [r.pick(aggregates)] })]);
    }
  }

  const roots = providers.filter((p) => p.parent === null);
  const live: Consumer[] = [];
  let consumerCount = 0;
  const projects = Array.from({ length: 50 }, (_, i) => `project-${i}`);
  const claim = (c: Consumer, moves: Provider[]): SyntheticEvent[] => {
    c.generation++;
    const consumerEvent: SyntheticEvent = {
      stream: `consumer-${c.uuid}`, type: 'ConsumerAllocationsReplaced',
      data: { allocations: { [c.provider]: c.resources }, project_id: c.project, user_id: c.user, consumer_type: 'INSTANCE', generation: c.generation, v: 1 },
    };
    return [consumerEvent, ...moves.map((p) => {
      p.generation++;
      const holding = p.uuid === c.provider ? c.resources : {};
      if (p.uuid === c.provider) p.holders.set(c.uuid, c.resources); else p.holders.delete(c.uuid);
      return event(p, 'ProviderAllocationsChanged', { consumers: { [c.uuid]: holding } });
    })];
  };
  const byUuid = new Map(providers.map((p) => [p.uuid, p]));
  while (emitted < shape.events) {
    const roll = r.next();
    if (live.length < liveTarget && roll < 0.5) {
      const p = r.pick(roots);
      if (p.deleted) continue;
      const c: Consumer = {
        uuid: uuid('c', consumerCount++), generation: -1, provider: p.uuid, project: r.pick(projects), user: `user-${r.int(200)}`,
        resources: { VCPU: 1 + r.int(8), MEMORY_MB: 1024 * (1 + r.int(16)), DISK_GB: 20 * (1 + r.int(5)) },
      };
      live.push(c);
      yield tx(claim(c, [p]));
    } else if (roll < 0.8 && live.length > 0) {
      const index = r.int(live.length);
      const c = live[index];
      live[index] = live[live.length - 1];
      live.pop();
      const p = byUuid.get(c.provider)!;
      p.generation++;
      p.holders.delete(c.uuid);
      c.generation++;
      yield tx([
        { stream: `consumer-${c.uuid}`, type: 'ConsumerRemoved', data: { generation: c.generation, v: 1 } },
        event(p, 'ProviderAllocationsChanged', { consumers: { [c.uuid]: {} } }),
      ]);
    } else if (roll < 0.95 && live.length > 0) {
      const c = r.pick(live);
      const from = byUuid.get(c.provider)!;
      const to = r.pick(roots);
      if (to.deleted) continue;
      c.provider = to.uuid;
      if (roll < 0.88) c.resources = { ...c.resources, VCPU: 1 + r.int(16) };
      yield tx(claim(c, from === to ? [to] : [from, to].sort((a, b) => (a.uuid < b.uuid ? -1 : 1))));
    } else {
      const p = r.pick(providers);
      if (p.deleted) continue;
      const kind = r.int(4);
      if (kind === 0) {
        yield tx([event(p, 'ResourceProviderUpdated', { name: `${p.name}-r${p.generation}`, parent_provider_uuid: p.parent })]);
      } else if (kind === 1 && p.parent !== null) {
        p.parent = r.pick(roots).uuid;
        yield tx([event(p, 'ResourceProviderUpdated', { name: p.name, parent_provider_uuid: p.parent })]);
      } else if (kind === 2) {
        p.generation++;
        yield tx([event(p, 'InventoriesSet', { inventories: inventoriesOf(p) })]);
      } else if (p.holders.size === 0 && p.parent !== null) {
        p.deleted = true;
        yield tx([event(p, 'ResourceProviderDeleted', {})]);
      }
    }
  }
}
