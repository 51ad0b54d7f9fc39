import type { SearchOptions } from '../../../../libs/placement/src/candidates/request.js';
import { ConfigError } from '../config.js';

/**
 * Generation stops here unless PLACEMENT_MAX_ALLOCATION_CANDIDATES says otherwise (-1: no cap,
 * upstream's default): schedulers send `limit`, and a wide tree otherwise yields tens of
 * thousands of candidates nobody reads.
 */
export const DEFAULT_MAX_CANDIDATES = 10000;

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
  return { randomize, maxCandidates };
}
