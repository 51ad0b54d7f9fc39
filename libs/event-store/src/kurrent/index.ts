// The KurrentDB adapter. Import it from here, not from the package index: loading it loads the
// KurrentDB client and its native module (about half a second), which PostgreSQL-only processes skip.
export * from './kurrent-event-store.js';
export * from './kurrent-subscription.js';
export * from './kurrent-client.js';
export * from './capabilities.js';
export * from './connection-string.js';
export * from './startup-check.js';
