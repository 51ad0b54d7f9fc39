import type { StreamImported } from '../import/stream-imported.js';

/** Provider uuid -> resource class -> units: everything one consumer holds, as one set. */
export type ConsumerAllocations = Readonly<Record<string, Readonly<Record<string, number>>>>;

/**
 * The order a claim listed its providers, each with its classes in the order listed: upstream
 * shows a consumer's allocations in the order they were written, and stored event data (jsonb)
 * keeps no key order.
 */
export type AllocationOrder = ReadonlyArray<readonly [string, readonly string[]]>;

/** Request group suffix -> provider uuids that satisfied it (1.34); kept for the audit trail only. */
export type Mappings = Readonly<Record<string, readonly string[]>>;

/** Facts of a consumer stream (`consumer-{uuid}`). Stored types are frozen: add, never change. */
export type ConsumerEvent =
  | StreamImported
  | {
      type: 'ConsumerAllocationsReplaced';
      data: {
        allocations: ConsumerAllocations;
        project_id: string;
        user_id: string;
        /** null: a consumer written below 1.38 that never got a type ("unknown"). */
        consumer_type: string | null;
        mappings?: Mappings;
        /**
         * Added later, so optional: absent in events written before it (and in imported ones),
         * which are shown providers by uuid and classes by name (allocation-order.ts).
         */
        written_order?: AllocationOrder;
        generation: number;
        /** Set by an import only: when the source last wrote these allocations, ISO 8601 (Last-Modified). */
        occurred_at?: string;
        v: 1;
      };
    }
  /** The consumer holds nothing any more and is gone, as upstream deletes the record. */
  | { type: 'ConsumerRemoved'; data: { generation: number; v: 1 } };

export const consumerStream = (uuid: string) => `consumer-${uuid}`;
