import { cpuSpent } from './claims-cpu';

describe('cpuSpent', () => {
  it("is what the server's processes and PostgreSQL's used between the samples", () => {
    expect(cpuSpent({ server: 1000, database: 500 }, { server: 1250, database: 585 })).toEqual({ server: 250, database: 85 });
  });

  it('leaves the server unknown when /proc could not read it', () => {
    expect(cpuSpent({ server: null, database: 0 }, { server: 3, database: 7 })).toEqual({ server: null, database: 7 });
  });
});
