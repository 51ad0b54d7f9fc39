export * from './stream-imported.js';
export * from './upstream-state.js';
export * from './upstream-state.check.js';
export * from './import-plan.js';
export * from './compare-states.js';
