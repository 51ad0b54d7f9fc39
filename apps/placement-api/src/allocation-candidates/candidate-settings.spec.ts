import { ConfigError } from '../config.js';
import { candidateSearchOptions, DEFAULT_MAX_CANDIDATES } from './candidate-settings.js';

describe('candidateSearchOptions', () => {
  it('defaults to upstream order and a generation cap', () => {
    expect(candidateSearchOptions({})).toEqual({ randomize: false, maxCandidates: DEFAULT_MAX_CANDIDATES });
  });

  it('reads randomize_allocation_candidates and max_allocation_candidates, -1 meaning no cap', () => {
    expect(candidateSearchOptions({ PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES: 'True', PLACEMENT_MAX_ALLOCATION_CANDIDATES: '-1' }))
      .toEqual({ randomize: true, maxCandidates: null });
    expect(candidateSearchOptions({ PLACEMENT_MAX_ALLOCATION_CANDIDATES: '500' }).maxCandidates).toBe(500);
  });

  it('refuses values that are not settings', () => {
    expect(() => candidateSearchOptions({ PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES: 'sometimes' })).toThrow(ConfigError);
    for (const bad of ['0', '-2', '1.5', 'many']) {
      expect(() => candidateSearchOptions({ PLACEMENT_MAX_ALLOCATION_CANDIDATES: bad })).toThrow(ConfigError);
    }
  });
});
