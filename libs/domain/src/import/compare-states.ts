import { UpstreamConsumer, UpstreamNamed, UpstreamProvider, UpstreamState } from './upstream-state.js';

/** Last-Modified has whole seconds; the stores keep finer and different fractions. */
const second = (iso: string | null) => (iso === null ? null : iso.slice(0, 19));

const json = (value: unknown) => JSON.stringify(value);

/** Objects compared by content, keys in any order (neither store promises one). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
  }
  return value;
}

/**
 * Every difference between the source and what was imported, one readable line each, named by
 * entity and field: `resource provider <uuid>: generation 4 != 3`. Empty when they agree.
 */
export function compareStates(source: UpstreamState, target: UpstreamState): string[] {
  const lines: string[] = [];
  compareNamed('resource class', source.resourceClasses, target.resourceClasses, lines);
  compareNamed('trait', source.traits, target.traits, lines);
  compareBy('resource provider', source.providers, target.providers, (p) => p.uuid, compareProvider, lines);
  compareBy('consumer', source.consumers, target.consumers, (c) => c.uuid, compareConsumer, lines);
  return lines;
}

function compareBy<T>(
  kind: string, source: readonly T[], target: readonly T[], key: (item: T) => string,
  fields: (a: T, b: T) => [string, unknown, unknown][], lines: string[],
): void {
  const theirs = new Map(target.map((item) => [key(item), item]));
  for (const item of source) {
    const other = theirs.get(key(item));
    theirs.delete(key(item));
    if (!other) {
      lines.push(`${kind} ${key(item)}: in the source, missing in the target`);
      continue;
    }
    for (const [field, a, b] of fields(item, other)) {
      if (json(canonical(a)) !== json(canonical(b))) lines.push(`${kind} ${key(item)}: ${field} ${json(a)} != ${json(b)}`);
    }
  }
  for (const name of theirs.keys()) lines.push(`${kind} ${name}: in the target, not in the source`);
}

function compareNamed(kind: string, source: readonly UpstreamNamed[], target: readonly UpstreamNamed[], lines: string[]) {
  compareBy(kind, source, target, (n) => n.name, (a, b) => [['modified', second(a.modifiedAt), second(b.modifiedAt)]], lines);
}

const compareProvider = (a: UpstreamProvider, b: UpstreamProvider): [string, unknown, unknown][] => [
  ['name', a.name, b.name],
  ['generation', a.generation, b.generation],
  ['parent', a.parentUuid, b.parentUuid],
  ['modified', second(a.modifiedAt), second(b.modifiedAt)],
  ['inventories', a.inventories, b.inventories],
  ['inventories modified', second(a.inventoriesModifiedAt), second(b.inventoriesModifiedAt)],
  ['traits', [...a.traits].sort(), [...b.traits].sort()],
  ['aggregates', [...a.aggregates].sort(), [...b.aggregates].sort()],
];

const compareConsumer = (a: UpstreamConsumer, b: UpstreamConsumer): [string, unknown, unknown][] => [
  ['project', a.projectId, b.projectId],
  ['user', a.userId, b.userId],
  ['consumer type', a.consumerType, b.consumerType],
  ['generation', a.generation, b.generation],
  ['allocations', a.allocations, b.allocations],
  // The order GET /allocations/{consumer} lists providers in, as upstream wrote them.
  ['provider order', Object.keys(a.allocations), Object.keys(b.allocations)],
  ['modified', second(a.modifiedAt), second(b.modifiedAt)],
];
