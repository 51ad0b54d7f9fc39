import { projectorSettings } from './settings.js';

const URL = 'postgres://placement@db:5432/placement';

describe('projectorSettings', () => {
  it('reads the PostgreSQL log by default, with the defaults', () => {
    expect(projectorSettings({ DATABASE_URL: URL })).toEqual({
      databaseUrl: URL, logLevel: 'info', batchSize: 500, standbyPollMs: 1000, connectionRecycleSeconds: 3600, kurrentDbUrl: undefined,
    });
  });

  it('reads KurrentDB when the API does', () => {
    const settings = projectorSettings({ DATABASE_URL: URL, PLACEMENT_EVENT_STORE: 'kurrentdb', PLACEMENT_KURRENTDB_URL: 'kurrentdb://k:2113?tls=false' });
    expect(settings).toMatchObject({ kurrentDbUrl: 'kurrentdb://k:2113?tls=false' });
  });

  it('recycles its pooled connections at the age the API does', () => {
    expect(projectorSettings({ DATABASE_URL: URL, PLACEMENT_DB_CONNECTION_RECYCLE_TIME: '9' })).toMatchObject({ connectionRecycleSeconds: 9 });
  });

  it.each([
    [{}, /DATABASE_URL/],
    [{ DATABASE_URL: URL, PLACEMENT_DB_CONNECTION_RECYCLE_TIME: '0' }, /PLACEMENT_DB_CONNECTION_RECYCLE_TIME must be an integer from 1/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ DATABASE_URL: URL, PLACEMENT_PROJECTOR_BATCH_SIZE: '0' }, /PLACEMENT_PROJECTOR_BATCH_SIZE must be an integer from 1/],
    [{ DATABASE_URL: URL, PLACEMENT_PROJECTOR_STANDBY_POLL_MS: '10' }, /PLACEMENT_PROJECTOR_STANDBY_POLL_MS/],
    [{ DATABASE_URL: URL, LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ DATABASE_URL: URL, PLACEMENT_EVENT_STORE: 'kurrentdb' }, /PLACEMENT_KURRENTDB_URL/],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(projectorSettings(env)).toMatch(message);
  });
});
