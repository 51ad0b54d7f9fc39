import type { GenerationStrategy, SearchOptions } from '#placement/candidates/request.js';
import { ConfigError } from '#platform/config.js';

/**
 * No cap unless PLACEMENT_MAX_ALLOCATION_CANDIDATES sets one, as upstream's default (-1): an
 * operator upgrading from upstream gets every candidate it gave. Wide trees can yield tens of
 * thousands; upstream suggests a cap (about 100000) with breadth-first generation there.
 */
const DEFAULT_MAX_CANDIDATES: number | null = null;

const STRATEGIES: readonly GenerationStrategy[] = ['depth-first', 'breadth-first'];

/** The candidate search's settings, as upstream's [placement] options of the same names. */
export function candidateSearchOptions(env: NodeJS.ProcessEnv = process.env): SearchOptions {
  const randomRaw = (env.PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES ?? '').toLowerCase();
  let randomize = false;
  if (['1', 'true', 'yes', 'on'].includes(randomRaw)) randomize = true;
  else if (!['', '0', 'false', 'no', 'off'].includes(randomRaw)) {
    throw new ConfigError(`PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES must be true or false, not "${env.PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES}"`);
  }
  const maxRaw = env.PLACEMENT_MAX_ALLOCATION_CANDIDATES;
  let maxCandidates: number | null = DEFAULT_MAX_CANDIDATES;
  if (maxRaw !== undefined && maxRaw !== '') {
    const value = Number(maxRaw);
    if (!Number.isInteger(value) || value === 0 || value < -1) {
      throw new ConfigError(`PLACEMENT_MAX_ALLOCATION_CANDIDATES must be -1 (no cap) or a positive integer, not "${maxRaw}"`);
    }
    maxCandidates = value === -1 ? null : value;
  }
  const strategyRaw = env.PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY || 'depth-first';
  const strategy = STRATEGIES.find((known) => known === strategyRaw);
  if (!strategy) {
    throw new ConfigError(`PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY must be depth-first or breadth-first, not "${strategyRaw}"`);
  }
  return { randomize, maxCandidates, strategy };
}
