export * from './merge-patch.js';
export * from './allocations-patch.js';
