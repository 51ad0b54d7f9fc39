import { START, comparePositions } from '../port.js';
import { positionOfAppend, toLogPosition, toReadPosition } from './positions.js';

describe('KurrentDB positions', () => {
  it('maps {commit, prepare} one to one, both ways', () => {
    const stored = { commit: 90210n, prepare: 90100n };
    expect(toLogPosition(stored)).toEqual(stored);
    expect(toReadPosition(toLogPosition(stored))).toEqual(stored);
  });

  it('reads our START as the client\'s start of $all', () => {
    expect(toReadPosition(START)).toBe('start');
    expect(toReadPosition({ commit: 0n, prepare: 5n })).toEqual({ commit: 0n, prepare: 5n });
  });

  it('places an append at {p, p}, where its last event is read back', () => {
    expect(positionOfAppend(4242n)).toEqual({ commit: 4242n, prepare: 4242n });
  });

  it('orders KurrentDB positions as the server does: commit first, then prepare', () => {
    const positions = [{ commit: 200n, prepare: 150n }, { commit: 100n, prepare: 100n }, { commit: 200n, prepare: 120n }].map(toLogPosition);
    expect([...positions].sort(comparePositions)).toEqual([
      { commit: 100n, prepare: 100n }, { commit: 200n, prepare: 120n }, { commit: 200n, prepare: 150n },
    ]);
  });
});
