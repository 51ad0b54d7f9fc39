export * from './ini.js';
export * from './locate.js';
export * from './map-config.js';
export * from './load.js';
export { toPostgresUrl, redact } from './database-url.js';
