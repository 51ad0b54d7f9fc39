export * from './capacity-series.js';
export * from './index-providers.js';
export * from './project-usage.js';
