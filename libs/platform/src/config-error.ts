/** A setting with a bad value: it stops the start, with a message naming the setting. */
export class ConfigError extends Error {}
