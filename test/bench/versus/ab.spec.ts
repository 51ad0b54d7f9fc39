import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { abLatency, parseAb, parsePercentiles } from './ab.js';

const SUMMARY = `Concurrency Level:      10
Time taken for tests:   2.352 seconds
Complete requests:      500
Failed requests:        3
   (Connect: 0, Receive: 0, Length: 3, Exceptions: 0)
Non-2xx responses:      2
Requests per second:    212.65 [#/sec] (mean)
Time per request:       47.025 [ms] (mean)
Time per request:       4.703 [ms] (mean, across all concurrent requests)
`;

describe('parseAb', () => {
  it("reads counts, throughput and the mean time per request from ab's summary", () => {
    expect(parseAb(SUMMARY)).toEqual({ requests: 500, perSecond: 212.65, meanMs: 47.025, failed: 3, non2xx: 2 });
  });

  it('refuses a summary without completed requests rather than report zero throughput', () => {
    expect(() => parseAb('apr_socket_recv: Connection refused (111)\n')).toThrow(/completed no request/);
  });
});

describe('parsePercentiles', () => {
  const table = (rows: [number, number][]) => ['Percentage served,Time in ms', ...rows.map(([p, t]) => `${p},${t.toFixed(3)}`)].join('\n');

  it('reads p50, p95 and p99 with their microseconds', () => {
    const rows = Array.from({ length: 101 }, (_v, p): [number, number] => [p, 1 + p / 1000]);
    expect(parsePercentiles(table(rows), 300)).toEqual({ p50: 1.05, p95: 1.095, p99: 1.099 });
  });

  it('takes the slowest request for a row ab read past the last request (few requests)', () => {
    // 30 requests: row 99 indexes request 30 of 0..29, past the end; row 95 indexes 29, the last.
    const rows = Array.from({ length: 101 }, (_v, p): [number, number] => [p, p === 99 ? 9e9 : 1 + p / 1000]);
    expect(parsePercentiles(table(rows), 30)).toEqual({ p50: 1.05, p95: 1.095, p99: 1.1 });
  });

  it('refuses a table without the rows asked for', () => {
    expect(() => parsePercentiles('Percentage served,Time in ms\n', 10)).toThrow(/no row 50/);
  });
});

// ApacheBench comes from Debian's apache2-utils, which CI installs (.ci/run); elsewhere the case waits for it.
const abInstalled = spawnSync('ab', ['-V']).status === 0;

(abInstalled ? describe : describe.skip)('abLatency', () => {
  it("times one client's requests with ab -c 1 against a real server", async () => {
    const server = createServer((_req, res) => setTimeout(() => res.end('{}'), 5));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as { port: number };
      const timed = await abLatency(`http://127.0.0.1:${port}/`, 20, 30);
      expect(timed.requests).toBe(20);
      expect(timed.p50).toBeGreaterThanOrEqual(4);
      expect(timed.p95).toBeGreaterThanOrEqual(timed.p50);
      expect(timed.p99).toBeGreaterThanOrEqual(timed.p95);
    } finally {
      server.close();
    }
  });
});
