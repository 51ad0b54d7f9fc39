import { createHash } from 'node:crypto';
import { AppendRequest, EventStore, NewEvent, NO_STREAM, WrongExpectedRevision } from '../../../event-store/src/index.js';

const PROVIDER = 'provider-';
const NAMING = new Set(['ResourceProviderCreated', 'ResourceProviderUpdated']);
const DELETED = 'ResourceProviderDeleted';
export const NAME_RESERVED = 'ProviderNameReserved';
export const NAME_RELEASED = 'ProviderNameReleased';

/**
 * The stream holding one name's reservations. Hashed because names are free text up to 200
 * characters and KurrentDB compares the streams of one append session without case, so a
 * rename from "a" to "A" would otherwise name one stream twice; and not under `provider-`,
 * which is where readers find providers.
 */
export const nameReservationStream = (name: string) => `reserved-provider-name-${createHash('sha256').update(name).digest('hex')}`;

/**
 * Provider-name uniqueness for a log outside PostgreSQL, where providerNameGuard cannot run:
 * each creation or rename also appends a reservation to the name's stream, expecting the
 * stream to be new or its last event a release, in the SAME atomic append; a rename or a
 * deletion releases the old name there too. Two creations of one name at once cannot both
 * commit, so the projector never meets a duplicate its unique key would refuse. A taken name
 * fails the way the unique key did, and the handlers answer upstream's 409 as before.
 */
export function reservingProviderNames<S extends EventStore>(store: S): S {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key !== 'append') return Reflect.get(target, key, receiver);
      return async (requests: readonly AppendRequest[]) => {
        const extra = (await Promise.all(requests.map((request) => reservationsFor(target, request)))).flat();
        if (extra.length === 0) return target.append(requests);
        try {
          return await target.append([...requests, ...extra]);
        } catch (error) {
          const lost = error instanceof WrongExpectedRevision && extra.find((request) => request.stream === error.stream);
          if (lost) throw nameTaken(String((lost.events[0].data as { name: string }).name));
          throw error;
        }
      };
    },
  });
}

async function reservationsFor(store: EventStore, request: AppendRequest): Promise<AppendRequest[]> {
  if (!request.stream.startsWith(PROVIDER) || !request.events.some((e) => NAMING.has(e.type) || e.type === DELETED)) return [];
  const uuid = request.stream.slice(PROVIDER.length);
  const before = (await store.readStream(request.stream)).reduce(foldName, undefined);
  const after = request.events.reduce(foldName, before);
  if (before === after) return [];
  const metadata = request.events[0].metadata;
  const changes: AppendRequest[] = [];
  if (before !== undefined) {
    const release = await releaseOf(store, before, uuid, metadata);
    if (release) changes.push(release);
  }
  if (after !== undefined) {
    const reserve = await reserveOf(store, after, uuid, metadata);
    if (reserve) changes.push(reserve);
  }
  return changes;
}

function foldName(name: string | undefined, event: { type: string; data: object }): string | undefined {
  const data = event.data as { name?: unknown };
  if (NAMING.has(event.type) && typeof data.name === 'string') return data.name;
  return event.type === DELETED ? undefined : name;
}

async function reserveOf(store: EventStore, name: string, uuid: string, metadata: NewEvent['metadata']): Promise<AppendRequest | undefined> {
  const stream = nameReservationStream(name);
  const last = (await store.readStream(stream)).at(-1);
  if (last?.type === NAME_RESERVED) {
    if (last.data.uuid === uuid) return undefined;
    throw nameTaken(name);
  }
  return { stream, expectedRevision: last ? last.revision : NO_STREAM, events: [{ type: NAME_RESERVED, data: { name, uuid }, metadata }] };
}

async function releaseOf(store: EventStore, name: string, uuid: string, metadata: NewEvent['metadata']): Promise<AppendRequest | undefined> {
  const stream = nameReservationStream(name);
  const last = (await store.readStream(stream)).at(-1);
  if (last?.type !== NAME_RESERVED || last.data.uuid !== uuid) return undefined;
  return { stream, expectedRevision: last.revision, events: [{ type: NAME_RELEASED, data: { name, uuid }, metadata }] };
}

/** The shape of the read model's unique-key violation, which the provider handlers turn into upstream's 409. */
const nameTaken = (name: string) =>
  Object.assign(new Error(`provider name ${name} is taken`), { code: '23505', constraint: 'rm_resource_providers_name' });
