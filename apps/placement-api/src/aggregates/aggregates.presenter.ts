import { Version } from '../platform/microversion.js';

/** From 1.19 the reply carries the generation a client needs for its next PUT. */
export function presentAggregates(aggregates: readonly string[], generation: number, version: Version) {
  const body: Record<string, unknown> = { aggregates };
  if (version.matches('1.19')) body.resource_provider_generation = generation;
  return body;
}
