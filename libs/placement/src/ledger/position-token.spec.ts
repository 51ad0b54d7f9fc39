import { parsePositionToken, parseRevisionMarker, positionToken, revisionMarker } from './position-token.js';

describe('position tokens', () => {
  it('round-trip any position, up to the largest transaction id', () => {
    for (const position of [{ commit: 0n, prepare: 0n }, { commit: 754n, prepare: 12n }, { commit: (1n << 64n) - 1n, prepare: (1n << 63n) - 1n }]) {
      const token = positionToken(position);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(parsePositionToken(token)).toEqual(position);
    }
  });

  it('are opaque: the raw pair is not a token', () => {
    expect(positionToken({ commit: 754n, prepare: 12n })).not.toContain('754');
    expect(parsePositionToken('754.12')).toBeUndefined();
  });

  it('refuse junk, padding, out-of-range numbers and markers', () => {
    const encode = (text: string) => Buffer.from(text).toString('base64url');
    for (const token of ['', 'x', '!!!!', `${encode('1.2')}=`, encode('1.2.3'), encode('-1.2'), encode('1.'),
      encode(`${1n << 64n}.1`), encode(`1.${1n << 63n}`), revisionMarker(3)]) {
      expect(parsePositionToken(token)).toBeUndefined();
    }
  });
});

describe('revision markers', () => {
  it('round-trip a revision and refuse a position token', () => {
    expect(parseRevisionMarker(revisionMarker(0))).toBe(0);
    expect(parseRevisionMarker(revisionMarker(41))).toBe(41);
    expect(parseRevisionMarker(positionToken({ commit: 5n, prepare: 6n }))).toBeUndefined();
    expect(parseRevisionMarker('41')).toBeUndefined();
  });
});
