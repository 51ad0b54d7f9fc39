export * from './admin-events.js';
export * from './progress.js';
export * from './row-diff.js';
export * from './rebuild.js';
export * from './verify.js';
export * from './status.js';
