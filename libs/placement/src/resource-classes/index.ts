export * from './resource-class.commands.js';
export * from './resource-class-usage.js';
export * from './resource-class-command.handlers.js';
export * from './resource-class.queries.js';
