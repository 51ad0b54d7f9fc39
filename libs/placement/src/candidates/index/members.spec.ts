import { indexOf } from './plain-index.js';
import { MemberSet, treeMembers } from './members.js';

describe('MemberSet', () => {
  const [a, b, c] = indexOf([{ uuid: 'a' }, { uuid: 'b' }, { uuid: 'c' }]).roots();

  it('ranks members in the order it iterates them, a Set\'s order', () => {
    const members = new MemberSet();
    [b, a, c, b].forEach((node) => members.add(node));
    members.delete(a);
    members.add(a);
    expect([...members].map((n) => n.uuid)).toEqual(['b', 'c', 'a']);
    expect([...members].map((n) => members.rank(n))).toEqual([0, 2, 3]);
    members.delete(c);
    expect([members.size, members.has(c), members.rank(c)]).toEqual([2, false, -1]);
  });
});

describe('treeMembers', () => {
  it('is one tree in its own order', () => {
    const index = indexOf([{ uuid: 'r' }, { uuid: 'x', parent: 'r' }, { uuid: 'y', parent: 'r' }, { uuid: 'other' }]);
    const root = index.get('r')!;
    const members = treeMembers(root, index.tree(root));
    expect([...members].map((n) => n.uuid)).toEqual(['r', 'x', 'y']);
    expect(['y', 'x', 'other'].map((u) => members.rank(index.get(u)!))).toEqual([2, 1, -1]);
    expect([members.has(index.get('y')!), members.has(index.get('other')!)]).toEqual([true, false]);
  });
});
