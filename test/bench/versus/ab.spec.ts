import { parseAb } from './ab.js';

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
