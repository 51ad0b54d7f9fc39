export * from './ini.js';
export * from './locate.js';
export * from './map-config.js';
export * from './load.js';
