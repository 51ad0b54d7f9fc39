import { KURRENTDB_URL_PATTERN } from './connection-string.js';

describe('KurrentDB connection strings', () => {
  it('accepts the schemes the client accepts, for one node or a cluster', () => {
    for (const url of [
      'kurrentdb://127.0.0.1:2113?tls=false',
      'kurrentdb+discover://admin:changeit@cluster.example:2113',
      'kdb://node:2113', 'kurrent://node:2113', 'esdb://node:2113?tls=false', 'esdb+discover://a:2113,b:2113',
    ]) expect(KURRENTDB_URL_PATTERN.test(url)).toBe(true);
  });

  it('refuses what the client would not parse', () => {
    for (const url of ['http://127.0.0.1:2113', 'postgres://u@h/db', '127.0.0.1:2113', 'kurrentdb://', 'kurrentdb://a b'])
      expect(KURRENTDB_URL_PATTERN.test(url)).toBe(false);
  });
});
