import type { EventStore, SqlClient } from '#event-store/index.js';
import type { CandidateView } from '../candidate-view.js';
import { CandidateSnapshotStore } from './snapshot-store.js';
import { loadNewestSnapshot, replayLog, storeSnapshot } from './snapshots.js';
import { SNAPSHOT_FORMAT } from './view-codec.js';

export interface RemadeSnapshot {
  readonly events: number;
  readonly seconds: number;
  readonly stored: boolean;
}

/**
 * placement-admin rebuild's part: the candidate view replayed from the whole log (not from the
 * old snapshot: a rebuild is what an operator runs when a cache is not trusted) and stored, so
 * the next API start reads it instead of the log.
 */
export async function remakeCandidateSnapshot(db: SqlClient, log: EventStore): Promise<RemadeSnapshot> {
  const started = performance.now();
  const replayed = await replayLog(log);
  const stored = replayed.events > 0 && await storeSnapshot(new CandidateSnapshotStore(db), replayed);
  return { events: replayed.events, seconds: (performance.now() - started) / 1000, stored };
}

export type SnapshotCheck =
  | { readonly status: 'none' }
  /** The newest snapshot cannot be used (the API replays instead): why. */
  | { readonly status: 'unusable'; readonly reasons: readonly string[] }
  | { readonly status: 'match' | 'mismatch'; readonly events: number; readonly differences: readonly string[]; readonly seconds: number };

const SHOWN = 20;

/**
 * placement-admin verify's part: the newest usable snapshot against a replay of the log up to its
 * position. A snapshot the API would pass over is reported, not counted as drift: it costs time,
 * never a wrong answer.
 */
export async function verifyCandidateSnapshot(db: SqlClient, log: EventStore): Promise<SnapshotCheck> {
  const started = performance.now();
  const store = new CandidateSnapshotStore(db);
  const newest = (await store.heads(SNAPSHOT_FORMAT))[0];
  if (!newest) return { status: 'none' };
  const reasons: string[] = [];
  const stored = await loadNewestSnapshot(store, log, (why) => reasons.push(why));
  if (!stored) return { status: 'unusable', reasons };
  const replayed = await replayLog(log, null, { position: stored.position });
  const differences = viewDifferences(stored.view, replayed.view);
  if (replayed.events !== stored.events) differences.unshift(`the snapshot counts ${stored.events} events, the log ${replayed.events} up to its position`);
  return {
    status: differences.length > 0 ? 'mismatch' : 'match', events: stored.events,
    differences: differences.slice(0, SHOWN), seconds: (performance.now() - started) / 1000,
  };
}

/** What differs between two views, by provider uuid, name and project rather than by position. */
function viewDifferences(stored: CandidateView, replayed: CandidateView): string[] {
  const found: string[] = [];
  const a = stored.index.toSnapshot();
  const b = replayed.index.toSnapshot();
  const byUuid = (snapshot: typeof a) => new Map(snapshot.states.map((state, i) => [state.uuid, {
    state, children: snapshot.children[i].map((child) => snapshot.states[child].uuid),
  }]));
  const [left, right] = [byUuid(a), byUuid(b)];
  for (const [uuid, entry] of right) {
    const other = left.get(uuid);
    if (!other) found.push(`provider ${uuid}: missing from the snapshot`);
    else if (!samePlainData(other.state, entry.state)) found.push(`provider ${uuid}: its state differs`);
    else if (!samePlainData(other.children, entry.children)) found.push(`provider ${uuid}: its children differ`);
  }
  for (const uuid of left.keys()) if (!right.has(uuid)) found.push(`provider ${uuid}: in the snapshot, not in the log`);
  const facet = (snapshot: typeof a, key: 'byClass' | 'byTrait' | 'byAggregate') =>
    new Map(snapshot[key].map(([name, members]) => [name, members.map((i) => snapshot.states[i].uuid)]));
  for (const key of ['byClass', 'byTrait', 'byAggregate'] as const) {
    if (!samePlainData(facet(a, key), facet(b, key))) found.push(`the index's ${key} lists differ`);
  }
  if (!samePlainData(stored.names.toSnapshot(), replayed.names.toSnapshot())) found.push('the resource class or trait names differ');
  if (!samePlainData(stored.projects.toSnapshot(), replayed.projects.toSnapshot())) found.push("the projects' usage differs");
  return found;
}

/**
 * Equality of plain data (objects, arrays, primitives; Maps by entries), key order aside.
 * Not util.isDeepStrictEqual, which also compares prototypes: under jest the objects a payload
 * is parsed into and those replayed from the log can come from different realms.
 */
function samePlainData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Map || b instanceof Map) {
    return a instanceof Map && b instanceof Map && a.size === b.size && [...a].every(([key, value]) => b.has(key) && samePlainData(value, b.get(key)));
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key)
    && samePlainData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
