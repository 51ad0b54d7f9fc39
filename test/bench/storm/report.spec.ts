import { summaryOf, ServerStorm } from './figures.js';
import { stormLines } from './report.js';

const storm: ServerStorm = {
  server: 'ours', asked: 4, warmedBy: 0,
  result: {
    acknowledged: Array.from({ length: 4 }, (_, i) => ({ consumer: `c${i}`, projectId: 'p', userId: 'u', allocations: {} })),
    noValidHost: 0, capacityConflicts: 0, raceConflicts: 0, retries: 0, retriedInstances: 0, failed: 0, failures: [],
    gets: [{ at: 1, ms: 10 }], puts: [{ at: 2, ms: 12 }], getBytes: 400, putBytes: 100, seconds: 1, schedulers: 1, weighMs: 0,
  },
  cpu: { server: 12, database: 8, other: 20 },
  loadGeneratorCpu: 18,
  statements: 9, transactions: 8,
  watched: { root: [], rootFailures: 0, peakTreeRss: 0, peakProcessHwm: 0 },
  wide: [], problems: [],
};

describe("a storm's CPU figures", () => {
  it("name the load generator's share of the rest of the host, per scheduled instance, in the report and in --json", () => {
    expect(stormLines(storm).join('')).toContain(
      '  ours     CPU per scheduled instance: server 3.00 ms + PostgreSQL 2.00 ms = 5.00 ms (rest of the host 5.00 ms, of which the load generator 4.50 ms)');
    expect(summaryOf(storm).cpuPerInstanceMs).toEqual({ server: 3, database: 2, other: 5, loadGenerator: 4.5 });
  });
});
