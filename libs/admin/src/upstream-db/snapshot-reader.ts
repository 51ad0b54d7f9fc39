import {
  isStandardResourceClass, isStandardTrait, UpstreamConsumer, UpstreamNamed, UpstreamProvider, UpstreamState,
} from '#domain/index.js';
import { later, modifiedAt, utcText } from './sql-time.js';
import { hasConsumerTypes, unknownRevisionMessage, UPSTREAM_REVISIONS } from './upstream-schema.js';

/** One query inside the source's snapshot transaction; the SQL below is valid MySQL and PostgreSQL. */
export type SourceQuery = <Row>(sql: string) => Promise<Row[]>;

export class SourceSchemaError extends Error {}

type Stamped = { created_at: string | null; updated_at: string | null };

/** Where upstream keeps allocations of a consumer it never recorded (schemas before b5c396305c25). */
export interface IncompleteConsumerIds {
  readonly projectId: string;
  readonly userId: string;
}

/**
 * Reads upstream's whole state with a handful of set queries (no query per row), resolving its
 * integer ids to the names and uuids the API shows. `rows` is told each table's row count.
 */
export async function readUpstreamState(
  query: SourceQuery, incomplete: IncompleteConsumerIds, rows: (table: string, count: number) => void = () => undefined,
): Promise<UpstreamState> {
  const revision = await readRevision(query);
  const counted = async <Row>(table: string, sql: string) => {
    const result = await query<Row>(sql);
    rows(table, result.length);
    return result;
  };
  const named = (table: string) => counted<{ name: string } & Stamped>(table, `SELECT name, created_at, updated_at FROM ${table}`);
  const classes = (await named('resource_classes')).filter((rc) => !isStandardResourceClass(rc.name)).map(toNamed);
  const traits = (await named('traits')).filter((trait) => !isStandardTrait(trait.name)).map(toNamed);

  const providers = new Map<string, MutableProvider>();
  for (const row of await counted<{ uuid: string; name: string; generation: number; parent: string | null } & Stamped>('resource_providers',
    `SELECT rp.uuid, rp.name, rp.generation, parent.uuid AS parent, rp.created_at, rp.updated_at
     FROM resource_providers rp LEFT JOIN resource_providers parent ON parent.id = rp.parent_provider_id ORDER BY rp.id`)) {
    providers.set(row.uuid, {
      uuid: row.uuid, name: row.name, generation: Number(row.generation ?? 0), parentUuid: row.parent, modifiedAt: modifiedAt(row),
      inventories: {}, inventoriesModifiedAt: null, traits: [], aggregates: [],
    });
  }
  const of = (uuid: string) => providers.get(uuid)!;
  for (const row of await counted<InventoryRow>('inventories',
    `SELECT rp.uuid, rc.name AS rc, i.total, i.reserved, i.min_unit, i.max_unit, i.step_size, i.allocation_ratio, i.created_at, i.updated_at
     FROM inventories i JOIN resource_providers rp ON rp.id = i.resource_provider_id
     JOIN resource_classes rc ON rc.id = i.resource_class_id ORDER BY i.id`)) {
    const provider = of(row.uuid);
    provider.inventories[row.rc] = {
      total: Number(row.total), reserved: Number(row.reserved), min_unit: Number(row.min_unit), max_unit: Number(row.max_unit),
      step_size: Number(row.step_size), allocation_ratio: Number(row.allocation_ratio),
    };
    provider.inventoriesModifiedAt = later(provider.inventoriesModifiedAt, modifiedAt(row));
  }
  for (const row of await counted<{ uuid: string; name: string }>('resource_provider_traits',
    `SELECT rp.uuid, t.name FROM resource_provider_traits rpt JOIN resource_providers rp ON rp.id = rpt.resource_provider_id
     JOIN traits t ON t.id = rpt.trait_id ORDER BY t.name`)) {
    of(row.uuid).traits.push(row.name);
  }
  for (const row of await counted<{ uuid: string; aggregate: string }>('resource_provider_aggregates',
    `SELECT rp.uuid, a.uuid AS aggregate FROM resource_provider_aggregates rpa
     JOIN resource_providers rp ON rp.id = rpa.resource_provider_id
     JOIN placement_aggregates a ON a.id = rpa.aggregate_id ORDER BY a.uuid`)) {
    of(row.uuid).aggregates.push(row.aggregate);
  }
  const consumers = await readConsumers(counted, revision, incomplete);
  return { revision, resourceClasses: classes, traits, providers: [...providers.values()], consumers };
}

/** A provider while its rows are gathered; the readers of both stores fill it. */
export type MutableProvider = Omit<UpstreamProvider, 'inventories' | 'traits' | 'aggregates' | 'inventoriesModifiedAt'> & {
  inventories: Record<string, UpstreamProvider['inventories'][string]>;
  inventoriesModifiedAt: string | null;
  traits: string[];
  aggregates: string[];
};

type InventoryRow = {
  uuid: string; rc: string; total: number; reserved: number; min_unit: number; max_unit: number; step_size: number; allocation_ratio: number;
} & Stamped;

const toNamed = (row: { name: string } & Stamped): UpstreamNamed => ({ name: row.name, modifiedAt: modifiedAt(row) });

async function readRevision(query: SourceQuery): Promise<string> {
  let rows: { version_num: string }[];
  try {
    rows = await query<{ version_num: string }>('SELECT version_num FROM alembic_version');
  } catch {
    throw new SourceSchemaError(unknownRevisionMessage(null));
  }
  const revision = rows[0]?.version_num ?? null;
  if (rows.length !== 1 || !UPSTREAM_REVISIONS.includes(revision as never)) throw new SourceSchemaError(unknownRevisionMessage(revision));
  return revision!;
}

type Counted = <Row>(table: string, sql: string) => Promise<Row[]>;

/** Consumers with their allocations, providers in the order upstream wrote them (row id). */
async function readConsumers(counted: Counted, revision: string, incomplete: IncompleteConsumerIds): Promise<UpstreamConsumer[]> {
  const typed = hasConsumerTypes(revision);
  const consumers = new Map<string, UpstreamConsumer & { allocations: Record<string, Record<string, number>> }>();
  for (const row of await counted<{ uuid: string; project: string; user_id: string; type: string | null; generation: number } & Stamped>('consumers',
    `SELECT c.uuid, p.external_id AS project, u.external_id AS user_id, ${typed ? 'ct.name' : 'NULL'} AS type, c.generation,
       c.created_at, c.updated_at
     FROM consumers c JOIN projects p ON p.id = c.project_id JOIN users u ON u.id = c.user_id
     ${typed ? 'LEFT JOIN consumer_types ct ON ct.id = c.consumer_type_id' : ''} ORDER BY c.id`)) {
    consumers.set(row.uuid, {
      uuid: row.uuid, projectId: row.project, userId: row.user_id, consumerType: row.type,
      generation: Number(row.generation), allocations: {}, modifiedAt: modifiedAt(row),
    });
  }
  const allocated = new Map<string, string | null>();
  for (const row of await counted<{ consumer: string; provider: string; rc: string; used: number; created_at: string | null }>('allocations',
    `SELECT a.consumer_id AS consumer, rp.uuid AS provider, rc.name AS rc, a.used, a.created_at
     FROM allocations a JOIN resource_providers rp ON rp.id = a.resource_provider_id
     JOIN resource_classes rc ON rc.id = a.resource_class_id ORDER BY a.id`)) {
    let consumer = consumers.get(row.consumer);
    if (!consumer) {
      // Allocations written below 1.8 before upstream's online migration made their consumer.
      consumer = { uuid: row.consumer, projectId: incomplete.projectId, userId: incomplete.userId, consumerType: null, generation: 0, allocations: {}, modifiedAt: '' };
      consumers.set(row.consumer, consumer);
    }
    (consumer.allocations[row.provider] ??= {})[row.rc] = Number(row.used);
    allocated.set(row.consumer, later(allocated.get(row.consumer) ?? null, utcText(row.created_at)));
  }
  return [...consumers.values()].map((consumer) => ({
    ...consumer, modifiedAt: allocated.get(consumer.uuid) ?? (consumer.modifiedAt || new Date(0).toISOString()),
  }));
}
