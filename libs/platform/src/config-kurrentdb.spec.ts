import { ConfigError, loadConfig } from './config.js';

const KURRENT = { PLACEMENT_EVENT_STORE: 'kurrentdb', PLACEMENT_KURRENTDB_URL: 'kurrentdb://127.0.0.1:2113?tls=false' };

describe('configuration: the log in KurrentDB', () => {
  it('projects asynchronously with an embedded projector unless told otherwise', () => {
    expect(loadConfig(KURRENT).projections).toEqual({ mode: 'async', projector: 'embedded', waitMs: 5000 });
    expect(loadConfig({ ...KURRENT, PLACEMENT_PROJECTIONS: 'async', PLACEMENT_PROJECTOR: 'off' }).projections)
      .toEqual({ mode: 'async', projector: 'off', waitMs: 5000 });
  });

  it('refuses inline projections, which need the append in a PostgreSQL transaction', () => {
    expect(() => loadConfig({ ...KURRENT, PLACEMENT_PROJECTIONS: 'inline' })).toThrow(new ConfigError(
      'PLACEMENT_EVENT_STORE=kurrentdb needs PLACEMENT_PROJECTIONS=async (or unset): inline projections need the log in PostgreSQL',
    ));
  });

  it('still projects inline by default with the log in PostgreSQL', () => {
    expect(loadConfig({ PLACEMENT_EVENT_STORE: 'postgres' }).projections.mode).toBe('inline');
  });
});
