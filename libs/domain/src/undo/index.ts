export * from './undo-input.js';
export * from './undo-plan.types.js';
export * from './undo-plan.js';
export { canonicalJson } from './same.js';
