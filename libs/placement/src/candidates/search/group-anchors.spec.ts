import { indexOf } from '../index/plain-index.js';
import { groupAnchors, Lent } from './group-anchors.js';

describe('group anchors', () => {
  const [a, b, c] = indexOf([{ uuid: 'a' }, { uuid: 'b' }, { uuid: 'c' }]).roots();

  it('keep the order they were found in and build an anchor\'s choices when asked', () => {
    const asked: string[] = [];
    const found = groupAnchors(new Set([b, a]), (anchor) => {
      asked.push(anchor.uuid);
      return [[anchor]];
    });
    expect([found.size, found.has(a), found.has(c)]).toEqual([2, true, false]);
    expect([...found.anchors()].map((n) => n.uuid)).toEqual(['b', 'a']);
    expect(asked).toEqual([]);
    expect(found.choices(a)).toEqual([[a]]);
    expect(asked).toEqual(['a']);
  });

  it('remember per anchor the providers lent to it, in the order lent', () => {
    const lent = new Lent();
    lent.add(a, c);
    lent.add(b, c);
    lent.add(a, b);
    expect(lent.to(a).map((n) => n.uuid)).toEqual(['c', 'b']);
    expect(lent.to(c)).toEqual([]);
  });
});
