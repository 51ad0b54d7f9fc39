export * from './port.js';
export * from './postgres/postgres-event-store.js';
export * from './postgres/event-store-schema.js';
export * from './postgres/sql-client.js';
