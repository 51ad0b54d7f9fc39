export * from './async-projector.js';
export * from './batch-plan.js';
export * from './checkpoint-rows.js';
export * from './leader-role.js';
export * from './position-waiters.js';
export * from './projection-waiter.js';
export * from './read-your-writes.js';
export * from './log-reader.js';
