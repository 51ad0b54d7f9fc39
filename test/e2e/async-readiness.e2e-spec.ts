import { startTestApp, TestApp } from '../support/test-app.js';

/**
 * Asynchronous projections with no projector running: a write is durable but the read models
 * fall behind, so /readyz must say so (and the lag gauge must show it) until a projector catches up.
 */
describe('readiness while asynchronous read models are behind', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PLACEMENT_PROJECTIONS: 'async', PLACEMENT_PROJECTOR: 'off', PLACEMENT_PROJECTION_WAIT_MS: '200' });
  });
  afterAll(async () => app.close());

  async function readyz() {
    return app.request('GET', '/readyz', { token: null });
  }

  it('is ready before any write, then not ready once an unprojected write is in the log', async () => {
    expect((await readyz()).status).toBe(200);
    const write = await app.request('POST', '/resource_providers', { version: '1.20', body: { name: 'behind' } });
    expect(write.status).toBe(503);

    let reply = await readyz();
    for (let i = 0; i < 50 && reply.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reply = await readyz();
    }
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({ status: 'not ready', reason: 'projections' });

    const metrics = await app.request('GET', '/metrics', { token: null });
    // Two events: the provider's creation and its name's reservation, appended together.
    expect(metrics.text).toMatch(/placement_projection_lag_events\{projection="providers"\} 2/);
  });
});
