import { cpuSpent } from './claims-cpu';

describe('cpuSpent', () => {
  it('adds what each backend used during the round, counting a new backend from zero', () => {
    const before = { server: 1000, backends: new Map([[11, 500], [12, 40], [13, 7]]) };
    const after = { server: 1250, backends: new Map([[11, 560], [12, 40], [14, 25]]) };
    expect(cpuSpent(before, after)).toEqual({ server: 250, database: 60 + 0 + 25 });
  });

  it('leaves the server unknown when /proc could not be read', () => {
    expect(cpuSpent({ server: null, backends: new Map() }, { server: 3, backends: new Map() })).toEqual({ server: null, database: 0 });
  });
});
