import { indexOf } from '../index/plain-index.js';
import { ByAnchor } from './by-anchor.js';

describe('ByAnchor', () => {
  const index = indexOf(['a', 'b', 'p', 'q', 'r'].map((uuid) => ({ uuid })));
  const [a, b, p, q, r] = ['a', 'b', 'p', 'q', 'r'].map((u) => index.get(u)!);
  const uuids = (nodes: Iterable<{ uuid: string }>) => [...nodes].map((n) => n.uuid);

  it('lists each anchor\'s providers in the order added, anchors in the order first seen', () => {
    const lists = new ByAnchor();
    [[b, p], [a, q], [b, r], [a, p], [b, q]].forEach(([anchor, node]) => lists.add(anchor, node));
    expect([lists.size, lists.has(a), lists.has(p)]).toEqual([2, true, false]);
    expect(uuids(lists.anchors())).toEqual(['b', 'a']);
    expect([uuids(lists.list(b)), uuids(lists.list(a)), uuids(lists.list(p))]).toEqual([['p', 'r', 'q'], ['q', 'p'], []]);
    expect(lists.list(b)).not.toBe(lists.list(b));
  });

  it('tests an anchor\'s providers without listing them', () => {
    const lists = new ByAnchor();
    lists.add(a, p);
    lists.add(a, q);
    expect(lists.some(a, (n) => n === q)).toBe(true);
    expect(lists.some(a, (n) => n === r)).toBe(false);
    expect(lists.some(b, () => true)).toBe(false);
  });
});
