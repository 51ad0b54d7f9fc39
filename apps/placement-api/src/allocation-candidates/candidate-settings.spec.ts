import { ConfigError } from '#platform/config.js';
import { candidateSearchOptions } from './candidate-settings.js';

describe('candidateSearchOptions', () => {
  it("defaults to upstream's: unrandomized, no generation cap (-1), depth-first", () => {
    expect(candidateSearchOptions({})).toEqual({ randomize: false, maxCandidates: null, strategy: 'depth-first' });
  });

  it('reads randomize_allocation_candidates and max_allocation_candidates, -1 meaning no cap', () => {
    expect(candidateSearchOptions({ PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES: 'True', PLACEMENT_MAX_ALLOCATION_CANDIDATES: '-1' }))
      .toEqual({ randomize: true, maxCandidates: null, strategy: 'depth-first' });
    expect(candidateSearchOptions({ PLACEMENT_MAX_ALLOCATION_CANDIDATES: '500' }).maxCandidates).toBe(500);
  });

  it('reads allocation_candidates_generation_strategy', () => {
    expect(candidateSearchOptions({ PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY: 'breadth-first' }).strategy).toBe('breadth-first');
    expect(candidateSearchOptions({ PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY: 'depth-first' }).strategy).toBe('depth-first');
  });

  it('refuses values that are not settings, naming the variable', () => {
    expect(() => candidateSearchOptions({ PLACEMENT_RANDOMIZE_ALLOCATION_CANDIDATES: 'sometimes' })).toThrow(ConfigError);
    for (const bad of ['0', '-2', '1.5', 'many']) {
      expect(() => candidateSearchOptions({ PLACEMENT_MAX_ALLOCATION_CANDIDATES: bad })).toThrow(ConfigError);
    }
    for (const bad of ['round-robin', 'Breadth-First', 'breadth_first']) {
      expect(() => candidateSearchOptions({ PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY: bad }))
        .toThrow(/PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY must be depth-first or breadth-first/);
    }
  });
});
