import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '#event-store/index.js';
import { GetResourceProviderHandler } from '#placement/providers/queries/get-provider.query.js';
import { startTestApp, TestApp } from '../support/test-app.js';

/**
 * A write's answer is often read back after it commits (POST /resource_providers from 1.20
 * answers the provider). When the database goes away in between, the 503 must say the write
 * stands: a client told only "unavailable" would repeat it. One that failed before it committed
 * stays a plain 503. The connection errors here are the ones node-postgres raises when a socket dies.
 */
describe('a database lost between a write and reading its answer back', () => {
  let app: TestApp;
  const lost = () => new Error('Connection terminated unexpectedly');

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());
  afterEach(() => jest.restoreAllMocks());

  it('answers 503 saying the write was applied, and the provider is there', async () => {
    const readBack = jest.spyOn(app.running.app.get(GetResourceProviderHandler), 'execute').mockRejectedValueOnce(lost());
    const name = `applied-${randomUUID()}`;
    const reply = await app.request('POST', '/resource_providers', { version: '1.20', body: { name } });
    expect(readBack).toHaveBeenCalledTimes(1);
    expect(reply.status).toBe(503);
    expect(reply.body.errors[0].detail).toMatch(/This write was applied, but the database connection was lost before its answer/);
    expect(reply.headers.get('retry-after')).toBe('2');
    const listed = await app.request('GET', `/resource_providers?name=${name}`, { version: '1.20' });
    expect(listed.body.resource_providers).toHaveLength(1);
  });

  it('answers a plain 503 for a write that never committed, and writes nothing', async () => {
    jest.spyOn(PostgresEventStore.prototype, 'append').mockRejectedValueOnce(lost());
    const name = `refused-${randomUUID()}`;
    const reply = await app.request('POST', '/resource_providers', { version: '1.20', body: { name } });
    expect(reply.status).toBe(503);
    expect(reply.body.errors[0].detail).toMatch(/The database is unavailable; retry later\./);
    expect(reply.body.errors[0].detail).not.toMatch(/applied|outcome/);
    const listed = await app.request('GET', `/resource_providers?name=${name}`, { version: '1.20' });
    expect(listed.body.resource_providers).toEqual([]);
  });
});
