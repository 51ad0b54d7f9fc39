export * from './consumer.events.js';
export * from './consumer.state.js';
export * from './consumer-generation.js';
export * from './allocation-order.js';
