import { activeProvider, indexOf } from './plain-index.js';

const cloud = () => indexOf([
  { uuid: 'a', inventories: { VCPU: { total: 8 } } },
  { uuid: 'b', inventories: { VCPU: { total: 8 } } },
]);
const claim = (index: ReturnType<typeof cloud>, uuid: string, used: number) => {
  const { state } = index.get(uuid)!;
  index.put(uuid, { ...state, usages: { VCPU: used } });
};

describe('the journal of the index (ChangeJournal)', () => {
  it('tells the providers changed since a version, and whether they only shrank', () => {
    const index = cloud();
    const from = index.version;
    claim(index, 'a', 2);
    claim(index, 'b', 1);
    claim(index, 'a', 1);
    expect(index.changesSince(from)!.map(({ node, shrank }) => `${node.uuid} ${shrank}`)).toEqual(['a true', 'b true', 'a false']);
    expect(index.changesSince(index.version)).toEqual([]);
    // An inventory resized may give more room: not a shrink.
    const { state } = index.get('b')!;
    index.put('b', { ...state, inventories: { VCPU: { ...state.inventories.VCPU, total: 4 } } });
    expect(index.changesSince(index.version - 1)!.map((c) => c.shrank)).toEqual([false]);
  });

  it('cannot tell across a change that reshapes what a search walks, nor further back than it remembers', () => {
    const reshapes = [
      (index: ReturnType<typeof cloud>) => index.put('c', activeProvider({ uuid: 'c', inventories: { VCPU: { total: 1 } } })),
      (index: ReturnType<typeof cloud>) => index.put('a', { status: 'deleted', uuid: 'a' }),
      (index: ReturnType<typeof cloud>) => index.put('a', { ...index.get('a')!.state, traits: ['CUSTOM_X'] }),
      (index: ReturnType<typeof cloud>) => index.put('a', { ...index.get('a')!.state, aggregates: ['agg'] }),
      (index: ReturnType<typeof cloud>) => index.put('a', { ...index.get('a')!.state, parentUuid: 'b' }),
      (index: ReturnType<typeof cloud>) => index.put('a', { ...index.get('a')!.state, inventories: {} }),
    ];
    for (const reshape of reshapes) {
      const index = cloud();
      const from = index.version;
      claim(index, 'b', 1);
      reshape(index);
      const after = index.version;
      claim(index, 'b', 2);
      expect(index.changesSince(from)).toBeNull();
      expect(index.changesSince(after)!.map((c) => c.node.uuid)).toEqual(['b']);
    }
    const index = cloud();
    const from = index.version;
    for (let used = 1; used <= 1025; used++) claim(index, 'a', used);
    expect(index.changesSince(from)).toBeNull();
    expect(index.changesSince(from + 1)).toHaveLength(1024);
  });
});
