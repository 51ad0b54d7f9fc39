/**
 * The read models live in a schema of their own, beside the log's es_* tables in public, so a
 * rebuild can fill a fresh schema and swap it in by renaming, without touching the log.
 */
export const READ_MODELS_SCHEMA = 'read_models';

/** Unqualified rm_* names resolve in `schema`, es_* names fall through to public: no query names a schema. */
export const searchPathOption = (schema: string) => `-c search_path=${schema},public`;
