import { startTestApp, TestApp } from '../support/test-app.js';

describe('HTTP platform: versions, errors, auth', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  it('serves the version document without a token, with version headers', async () => {
    const reply = await app.request('GET', '/', { token: null });
    expect(reply.status).toBe(200);
    expect(reply.body.versions[0]).toMatchObject({ id: 'v1.0', min_version: '1.0', max_version: '1.39', status: 'CURRENT' });
    expect(reply.headers.get('openstack-api-version')).toBe('placement 1.0');
    expect(reply.headers.get('vary')).toContain('openstack-api-version');
  });

  it('negotiates latest and refuses versions out of range or malformed', async () => {
    expect((await app.request('GET', '/', { version: 'latest' })).headers.get('openstack-api-version')).toBe('placement 1.39');
    const tooOld = await app.request('GET', '/', { version: '0.5' });
    expect(tooOld.status).toBe(406);
    expect(tooOld.body.errors[0]).toMatchObject({ title: 'Not Acceptable', max_version: '1.39', min_version: '1.0' });
    const malformed = await app.request('GET', '/', { version: '1.2.3' });
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('invalid version string: 1.2.3');
  });

  it('answers 401 without a token anywhere but the root', async () => {
    expect((await app.request('GET', '/resource_providers', { token: null })).status).toBe(401);
  });

  it('answers 404 in upstream error shape, with a code from 1.23 and a request id', async () => {
    const old = await app.request('GET', '/barnabas');
    expect(old.status).toBe(404);
    expect(old.body.errors[0].code).toBeUndefined();
    expect(old.body.errors[0].request_id).toMatch(/^req-[0-9a-f-]+$/);
    const coded = await app.request('GET', '/barnabas', { version: '1.23' });
    expect(coded.body.errors[0].code).toBe('placement.undefined_code');
    expect(coded.headers.get('x-openstack-request-id')).toBe(coded.body.errors[0].request_id);
  });

  it('answers 405 with the allowed methods for a known path', async () => {
    const reply = await app.request('DELETE', '/resource_providers');
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET, POST');
    expect(reply.text).toContain('The method DELETE is not allowed for this resource.');
  });

  it('refuses bodies that are not JSON, and Accept headers without JSON', async () => {
    const plain = await app.request('POST', '/resource_providers', { body: 'hi', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    const malformed = await app.request('POST', '/resource_providers', { body: '{"name": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('Malformed JSON');
    const html = await app.request('GET', '/resource_providers', { headers: { accept: 'text/plain' } });
    expect(html.status).toBe(406);
  });

  it('renders errors as HTML for a browser that names text/html', async () => {
    const reply = await app.request('GET', '/', { version: '0.5', headers: { accept: 'text/html' } });
    expect(reply.status).toBe(406);
    expect(reply.headers.get('content-type')).toContain('text/html');
    expect(reply.text).toContain('Unacceptable version header: 0.5');
  });
});
