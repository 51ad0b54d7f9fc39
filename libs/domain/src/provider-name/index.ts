export * from './provider-name.decider.js';
export * from './provider-name.changes.js';
