import type { SqlClient } from '#event-store/index.js';

/** The read models' connection (a pg Pool); queries and lookups only, never the log. */
export const READ_DB = Symbol('READ_DB');
export type ReadDb = SqlClient;
