export * from './provider-name.decider.js';
export * from './provider-name.changes.js';
export * from './provider-names-backfilled.js';
