import { randomUUID } from 'node:crypto';
import { STANDARD_RESOURCE_CLASSES } from '#domain/index.js';
import { startTestApp, TestApp } from '../support/test-app.js';

const LATEST = '1.39';
const HTTP_DATE = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

describe('resource classes', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  const names = async () => (await app.request('GET', '/resource_classes', { version: LATEST })).body.resource_classes.map((rc: any) => rc.name);
  const post = (name: string, version = LATEST) => app.request('POST', '/resource_classes', { version, body: { name } });

  it('is not there below 1.2, whatever the method', async () => {
    expect((await app.request('GET', '/resource_classes', { version: '1.1' })).status).toBe(404);
    expect((await app.request('POST', '/resource_classes', { version: '1.1', body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(404);
    expect((await app.request('GET', '/resource_classes/VCPU', { version: '1.1' })).status).toBe(404);
    expect((await app.request('PUT', '/resource_classes/CUSTOM_X', { version: '1.1', body: { name: 'CUSTOM_Y' } })).status).toBe(404);
    expect((await app.request('DELETE', '/resource_classes/CUSTOM_X', { version: '1.1' })).status).toBe(404);
  });

  it('lists the standard classes in canonical order, then custom ones as they were made', async () => {
    expect(await names()).toEqual(STANDARD_RESOURCE_CLASSES);
    expect((await post('CUSTOM_ZED')).status).toBe(201);
    expect((await post('CUSTOM_ALPHA')).status).toBe(201);
    expect(await names()).toEqual([...STANDARD_RESOURCE_CLASSES, 'CUSTOM_ZED', 'CUSTOM_ALPHA']);
    const one = await app.request('GET', '/resource_classes/CUSTOM_ZED', { version: '1.2' });
    expect(one.body).toEqual({ name: 'CUSTOM_ZED', links: [{ rel: 'self', href: '/resource_classes/CUSTOM_ZED' }] });
  });

  it('creates with POST: 201, a Location and no body; a second time is a conflict', async () => {
    const created = await post('CUSTOM_GOLD', '1.2');
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${app.baseUrl}/resource_classes/CUSTOM_GOLD`);
    expect(created.headers.get('content-type')).toBeNull();
    expect(created.text).toBe('');
    const again = await post('CUSTOM_GOLD');
    expect(again.status).toBe(409);
    expect(again.body.errors[0].detail).toContain('Conflicting resource class already exists: CUSTOM_GOLD');
  });

  it('refuses bad bodies with upstream messages and creates nothing', async () => {
    const before = await names();
    expect((await post('IRON_NFV')).text).toContain("Failed validating 'pattern'");
    expect((await post(`CUSTOM_${'S'.repeat(249)}`)).text).toContain("Failed validating 'maxLength'");
    const extra = await app.request('POST', '/resource_classes', { version: LATEST, body: { name: 'CUSTOM_A', x: 1 } });
    expect(extra.status).toBe(400);
    expect(extra.text).toContain('Additional properties are not allowed');
    const malformed = await app.request('POST', '/resource_classes', { version: LATEST, body: '{"name": }' });
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('Malformed JSON:');
    expect((await app.request('POST', '/resource_classes', { version: '1.2', body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect(await names()).toEqual(before);
  });

  it('shows one class, 404 for an unknown one', async () => {
    const missing = await app.request('GET', '/resource_classes/CUSTOM_NOPE', { version: LATEST });
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].detail).toContain('No such resource class CUSTOM_NOPE.');
    expect((await app.request('GET', '/resource_classes/VCPU', { version: LATEST })).body.name).toBe('VCPU');
  });

  describe('PUT from 1.7: create if absent', () => {
    it('answers 201 then 204, both with a Location, and needs no body', async () => {
      const first = await app.request('PUT', '/resource_classes/CUSTOM_COW', { version: '1.7' });
      expect(first.status).toBe(201);
      expect(first.headers.get('location')).toBe(`${app.baseUrl}/resource_classes/CUSTOM_COW`);
      const second = await app.request('PUT', '/resource_classes/CUSTOM_COW', { version: '1.7' });
      expect(second.status).toBe(204);
      expect(second.headers.get('location')).toBe(`${app.baseUrl}/resource_classes/CUSTOM_COW`);
      expect((await names()).filter((n: string) => n === 'CUSTOM_COW')).toHaveLength(1);
    });

    it('refuses names that are not custom', async () => {
      for (const name of ['VCPU', 'COW']) {
        const reply = await app.request('PUT', `/resource_classes/${name}`, { version: '1.7' });
        expect(reply.status).toBe(400);
        expect(reply.text).toContain("Failed validating 'pattern'");
      }
    });
  });

  describe('PUT 1.2-1.6: rename', () => {
    it('renames a custom class, moving its row', async () => {
      await post('CUSTOM_OLD');
      const renamed = await app.request('PUT', '/resource_classes/CUSTOM_OLD', { version: '1.6', body: { name: 'CUSTOM_NEW' } });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ name: 'CUSTOM_NEW', links: [{ rel: 'self', href: '/resource_classes/CUSTOM_NEW' }] });
      expect((await app.request('GET', '/resource_classes/CUSTOM_OLD', { version: '1.6' })).status).toBe(404);
      expect((await app.request('GET', '/resource_classes/CUSTOM_NEW', { version: '1.6' })).status).toBe(200);
      const events = [
        ...(await app.running.database.eventStore.readStream('resource-class-CUSTOM_OLD')),
        ...(await app.running.database.eventStore.readStream('resource-class-CUSTOM_NEW')),
      ];
      expect(events.map((e) => e.type)).toEqual(['ResourceClassCreated', 'ResourceClassRenamed', 'ResourceClassCreated']);
      // One append: both streams' events were written by the same transaction.
      expect(events[2].position.commit).toBe(events[1].position.commit);
      expect(events[2].data).toMatchObject({ name: 'CUSTOM_NEW', renamed_from: 'CUSTOM_OLD' });
    });

    it('refuses standard classes, taken names and missing classes, changing nothing', async () => {
      await post('CUSTOM_KEEP');
      await post('CUSTOM_TAKEN');
      const before = await names();
      const standard = await app.request('PUT', '/resource_classes/VCPU', { version: '1.6', body: { name: 'CUSTOM_KEEP2' } });
      expect(standard.status).toBe(400);
      expect(standard.text).toContain('Cannot update standard resource class VCPU');
      const taken = await app.request('PUT', '/resource_classes/CUSTOM_KEEP', { version: '1.6', body: { name: 'CUSTOM_TAKEN' } });
      expect(taken.status).toBe(409);
      expect(taken.text).toContain('Resource class already exists: CUSTOM_TAKEN');
      const missing = await app.request('PUT', '/resource_classes/CUSTOM_GHOST', { version: '1.6', body: { name: 'CUSTOM_GHOST2' } });
      expect(missing.status).toBe(404);
      const toStandard = await app.request('PUT', '/resource_classes/CUSTOM_KEEP', { version: '1.6', body: { name: 'VCPU' } });
      expect(toStandard.text).toContain('JSON does not validate');
      const bodiless = await app.request('PUT', '/resource_classes/CUSTOM_KEEP', { version: '1.6', headers: { 'content-type': 'application/json' } });
      expect(bodiless.status).toBe(400);
      expect(bodiless.text).toContain('Malformed JSON:');
      const plain = await app.request('PUT', '/resource_classes/CUSTOM_KEEP', { version: '1.6', body: 'x', headers: { 'content-type': 'text/plain' } });
      expect(plain.status).toBe(415);
      expect(await names()).toEqual(before);
    });

    it('keeps a class under its own name', async () => {
      await post('CUSTOM_SAME');
      const reply = await app.request('PUT', '/resource_classes/CUSTOM_SAME', { version: '1.6', body: { name: 'CUSTOM_SAME' } });
      expect(reply.status).toBe(200);
      expect(reply.body.name).toBe('CUSTOM_SAME');
    });
  });

  describe('DELETE', () => {
    it('deletes a custom class, then 404', async () => {
      await post('CUSTOM_GONE');
      expect((await app.request('DELETE', '/resource_classes/CUSTOM_GONE', { version: LATEST })).status).toBe(204);
      const again = await app.request('DELETE', '/resource_classes/CUSTOM_GONE', { version: LATEST });
      expect(again.status).toBe(404);
      expect(again.text).toContain('No such resource class CUSTOM_GONE.');
      expect(await names()).not.toContain('CUSTOM_GONE');
      expect((await post('CUSTOM_GONE')).status).toBe(201);
    });

    it('refuses a standard class', async () => {
      const reply = await app.request('DELETE', '/resource_classes/VCPU', { version: LATEST });
      expect(reply.status).toBe(400);
      expect(reply.text).toContain('Error in delete resource class: Cannot delete standard resource class VCPU.');
    });

    it('refuses, and refuses to rename, a class a provider has inventory of', async () => {
      await post('CUSTOM_USED');
      const uuid = randomUUID();
      await app.request('POST', '/resource_providers', { version: LATEST, body: { name: 'rc-user', uuid } });
      const inventory = await app.request('PUT', `/resource_providers/${uuid}/inventories`, {
        version: LATEST, body: { resource_provider_generation: 0, inventories: { CUSTOM_USED: { total: 5 } } },
      });
      expect(inventory.status).toBe(200);
      const reply = await app.request('DELETE', '/resource_classes/CUSTOM_USED', { version: LATEST });
      expect(reply.status).toBe(409);
      expect(reply.text).toContain('Error in delete resource class: Cannot delete resource class CUSTOM_USED. Class is in use in inventory.');
      const rename = await app.request('PUT', '/resource_classes/CUSTOM_USED', { version: '1.6', body: { name: 'CUSTOM_USED2' } });
      expect(rename.status).toBe(409);
      expect(await names()).toContain('CUSTOM_USED');
      expect(await names()).not.toContain('CUSTOM_USED2');
    });
  });

  it('says when classes last changed from 1.15, never on writes', async () => {
    const list = await app.request('GET', '/resource_classes', { version: '1.15' });
    expect(list.headers.get('last-modified')).toMatch(HTTP_DATE);
    expect(list.headers.get('cache-control')).toBe('no-cache');
    expect((await app.request('GET', '/resource_classes/VCPU', { version: '1.15' })).headers.get('last-modified')).toMatch(HTTP_DATE);
    const put = await app.request('PUT', '/resource_classes/CUSTOM_MOO', { version: '1.15' });
    expect(put.headers.get('last-modified')).toBeNull();
    expect((await app.request('GET', '/resource_classes/CUSTOM_MOO', { version: '1.15' })).headers.get('last-modified')).toMatch(HTTP_DATE);
    expect((await app.request('GET', '/resource_classes', { version: '1.14' })).headers.get('last-modified')).toBeNull();
  });
});
