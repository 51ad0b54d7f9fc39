import { roundRobin } from './round-robin.js';

describe('roundRobin', () => {
  it('takes one item from each list in turn, as upstream: ABC, D, EF -> A D E B F C', () => {
    expect(roundRobin([['A', 'B', 'C'], ['D'], ['E', 'F']])).toEqual(['A', 'D', 'E', 'B', 'F', 'C']);
  });

  it('is empty for no lists or empty lists', () => {
    expect(roundRobin([])).toEqual([]);
    expect(roundRobin([[], []])).toEqual([]);
  });
});
