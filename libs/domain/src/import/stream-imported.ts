/**
 * The first event of every stream that `placement-admin import` wrote: the entity was not born
 * here but read from an upstream Placement database. The events after it are the ordinary ones
 * that state the entity as the source held it; this one says where that state came from.
 * A stored type: add, never change.
 */
export interface StreamImported {
  readonly type: 'StreamImported';
  readonly data: {
    /** The source's connection URL without its password, e.g. mysql+pymysql://placement@db/placement. */
    readonly source: string;
    /** The source schema's alembic revision. */
    readonly source_revision: string;
    /** When the import read the source (its snapshot), ISO 8601. */
    readonly imported_at: string;
    readonly v: 1;
  };
}
