export * from '../consumer/index.js';
export * from './claim.js';
export * from './claim-messages.js';
export * from './allocation-rows.js';
export * from './capacity-check.js';
export * from './claim.decide.js';
export * from './reshape.decide.js';
