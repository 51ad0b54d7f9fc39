import { summaryOf, ServerStorm } from './figures.js';
import { againstLines, stormLines } from './report.js';

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

describe("a storm's wide-tree window", () => {
  it('reports GET /, the candidate questions and the claims that ended while the wide tree was asked, apart from the rest', () => {
    const asked = (label: string, from: number, to: number) => ({ label, status: 200, from, to, said: '{}', candidates: 1 });
    const wide: ServerStorm = {
      ...storm,
      result: { ...storm.result, gets: [{ at: 50, ms: 70 }, { at: 400, ms: 9 }], puts: [{ at: 60, ms: 40 }, { at: 90, ms: 50 }, { at: 300, ms: 8 }] },
      watched: { ...storm.watched, root: [{ at: 80, ms: 20 }, { at: 500, ms: 5 }] },
      wide: [asked('limit=1000', 10, 40), asked('no limit', 40, 100)],
    };
    expect(stormLines(wide).join('')).toContain('  ours     while asked (0.1 s): GET / n=1 p50 20.0 / p95 20.0 / p99 20.0 ms, '
      + 'GET candidates n=1 p50 70.0 / p95 70.0 / p99 70.0 ms, PUT n=2 p50 40.0 / p95 50.0 / p99 50.0 ms; otherwise GET / n=1 p50 5.0 / p95 5.0 / p99 5.0 ms');
  });
});

describe('two builds stormed in turns', () => {
  it("say the other build's CPU per instance over ours', slice by slice, or that no slice was booted on both", () => {
    const turns = [
      { slice: 0, server: 'ours' as const, instances: 10, cpuMs: 20 }, { slice: 0, server: 'against' as const, instances: 10, cpuMs: 30 },
      { slice: 1, server: 'against' as const, instances: 10, cpuMs: 20 }, { slice: 1, server: 'ours' as const, instances: 10, cpuMs: 20 },
    ];
    expect(againstLines(turns, 'old/main.js').join('')).toBe("  against  old/main.js, its server + PostgreSQL CPU per instance over ours', slice by slice (2 slices): "
      + 'mean 1.250 ± 0.250 (its standard error), median 1.250, from 1.000 to 1.500; ours lower in 1 of 2\n');
    expect(againstLines(turns.slice(0, 1), 'old/main.js')).toEqual(['  against  no slice was booted on both builds\n']);
  });
});
