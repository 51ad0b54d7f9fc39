import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT, runAdmin } from '#placement-admin/cli.js';
import { RequestOptions, startTestApp, TestApp } from '../support/test-app.js';
import { appendPastClaims } from '../support/usage-history.js';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('usage over time: GET /ledger/usage and /ledger/usage/totals', () => {
  let app: TestApp;
  beforeAll(async () => { app = await startTestApp(); });
  afterAll(async () => app.close());

  const usage = (query: string, options: RequestOptions = {}) =>
    app.request('GET', `/ledger/usage?${query}`, options);
  const totals = (query: string) => app.request('GET', `/ledger/usage/totals?${query}`);

  describe('claims made through the API, counted up to now', () => {
    const project = `proj-${randomUUID()}`;
    let began: number;

    beforeAll(async () => {
      began = Date.now();
      const rp = randomUUID();
      expect((await app.request('POST', '/resource_providers', { version: '1.20', body: { name: `rp-${rp}`, uuid: rp } })).status).toBe(200);
      expect((await app.request('PUT', `/resource_providers/${rp}/inventories`, {
        version: '1.20', body: { resource_provider_generation: 0, inventories: { VCPU: { total: 32 }, MEMORY_MB: { total: 8192 } } },
      })).status).toBe(200);
      const claim = (consumer: string, resources: object, userId: string, consumerType: string, generation: number | null) =>
        app.request('PUT', `/allocations/${consumer}`, {
          version: '1.38',
          body: { allocations: { [rp]: { resources } }, project_id: project, user_id: userId, consumer_generation: generation, consumer_type: consumerType },
        });
      const [vm, migration] = [randomUUID(), randomUUID()];
      expect((await claim(vm, { VCPU: 2, MEMORY_MB: 1024 }, 'alice', 'INSTANCE', null)).status).toBe(204);
      expect((await claim(migration, { VCPU: 4 }, 'bob', 'MIGRATION', null)).status).toBe(204);
      expect((await claim(vm, { VCPU: 8, MEMORY_MB: 1024 }, 'alice', 'INSTANCE', 1)).status).toBe(204);
      expect((await app.request('DELETE', `/allocations/${migration}`)).status).toBe(204);
    });

    it('reports each class with its peak and an integral no larger than the peak held all along', async () => {
      const reply = await usage(`project_id=${project}&start=${iso(began - HOUR)}`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/json');
      const body = reply.body;
      expect(body).toMatchObject({ project_id: project, user_id: null, consumer_type: null, bucket: 'hour' });
      expect(Object.keys(body.resource_classes)).toEqual(['MEMORY_MB', 'VCPU']);
      const vcpu = body.resource_classes.VCPU;
      // 2, then 2 + 4, then 8 + 4, then 8 once the migration is gone.
      expect(vcpu.peak).toBe(12);
      expect(body.resource_classes.MEMORY_MB.peak).toBe(1024);
      const elapsedHours = (Date.parse(body.now) - began) / HOUR;
      expect(vcpu.integral).toBeGreaterThan(0);
      expect(vcpu.integral).toBeLessThanOrEqual(12 * elapsedHours + 1e-6);
      const last = vcpu.buckets[vcpu.buckets.length - 1];
      expect(Date.parse(last.start)).toBeLessThanOrEqual(Date.parse(body.now));
      expect(Date.parse(last.start) + HOUR).toBeGreaterThan(Date.parse(body.now));
      expect(vcpu.buckets.map((b: any) => b.start)).toEqual(
        vcpu.buckets.map((_: unknown, i: number) => iso(Date.parse(body.start) + i * HOUR).replace('.000Z', 'Z')));
    });

    it('narrows to a user, a consumer type, both, or one class; an untyped filter finds nothing here', async () => {
      const start = iso(began - HOUR);
      const peakOf = async (filter: string) => (await usage(`project_id=${project}&start=${start}&${filter}`)).body.resource_classes;
      expect((await peakOf('user_id=bob')).VCPU.peak).toBe(4);
      expect((await peakOf('consumer_type=MIGRATION')).VCPU.peak).toBe(4);
      expect((await peakOf('consumer_type=INSTANCE&user_id=alice')).VCPU.peak).toBe(8);
      expect((await peakOf('consumer_type=all')).VCPU.peak).toBe(12);
      expect(await peakOf('consumer_type=unknown')).toEqual({});
      const disk = (await peakOf('resource_class=DISK_GB')).DISK_GB;
      expect(disk.peak).toBe(0);
      expect(disk.buckets.every((b: any) => b.peak === 0 && b.integral === 0)).toBe(true);
      expect(await peakOf('resource_class=VCPU')).toEqual({ VCPU: expect.objectContaining({ peak: 12 }) });
    });

    it('gives the totals alone, and nothing for a project that held nothing', async () => {
      const reply = await totals(`project_id=${project}&start=${iso(began - HOUR)}`);
      expect(reply.status).toBe(200);
      expect(reply.body.resource_classes.VCPU).toEqual({ peak: 12, integral: expect.any(Number) });
      expect(reply.body.resource_classes.VCPU.buckets).toBeUndefined();
      expect((await usage(`project_id=nobody&start=${iso(began - HOUR)}`)).body.resource_classes).toEqual({});
    });
  });

  describe('a past day written into the log, counted exactly', () => {
    const project = `past-${randomUUID()}`;
    const at = (text: string) => new Date(`2026-03-0${text}Z`);

    beforeAll(async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      await appendPastClaims(app.running.database.pool, [
        { consumer: a, at: at('1T10:15:00'), resources: { VCPU: 2 }, projectId: project },
        { consumer: b, at: at('1T10:30:00'), resources: { VCPU: 4 }, projectId: project },
        { consumer: a, at: at('1T11:00:00'), resources: { VCPU: 8 }, projectId: project },
        { consumer: b, at: at('1T11:30:00'), resources: null, projectId: project },
        { consumer: a, at: at('2T09:00:00'), resources: null, projectId: project },
      ]);
    });

    it('splits each holding over the hours it spans', async () => {
      const reply = await usage(`project_id=${project}&start=2026-03-01T10:00:00Z&end=2026-03-01T13:00:00Z`);
      expect(reply.body).toMatchObject({ start: '2026-03-01T10:00:00Z', end: '2026-03-01T13:00:00Z' });
      expect(reply.body.resource_classes).toEqual({
        VCPU: {
          peak: 12, integral: 21.5,
          buckets: [
            { start: '2026-03-01T10:00:00Z', peak: 6, integral: 2 * 0.75 + 4 * 0.5 },
            { start: '2026-03-01T11:00:00Z', peak: 12, integral: 12 * 0.5 + 8 * 0.5 },
            { start: '2026-03-01T12:00:00Z', peak: 8, integral: 8 },
          ],
        },
      });
    });

    it('folds days, aligns the range to the buckets, and reads offsets', async () => {
      const days = await usage(`project_id=${project}&start=2026-03-01T00:00:00Z&end=2026-03-04T00:00:00Z&bucket=day`);
      expect(days.body.resource_classes.VCPU.buckets).toEqual([
        { start: '2026-03-01T00:00:00Z', peak: 12, integral: 3.5 + 10 + 8 * 12 },
        { start: '2026-03-02T00:00:00Z', peak: 8, integral: 8 * 9 },
        { start: '2026-03-03T00:00:00Z', peak: 0, integral: 0 },
      ]);
      const shifted = await usage(`project_id=${project}&start=${encodeURIComponent('2026-03-01T12:40:00+02:00')}&end=2026-03-01T11:20:00Z`);
      expect(shifted.body).toMatchObject({ start: '2026-03-01T10:00:00Z', end: '2026-03-01T12:00:00Z' });
      expect(shifted.body.resource_classes.VCPU.buckets.map((b: any) => b.peak)).toEqual([6, 12]);
      const total = await totals(`project_id=${project}&start=2026-03-01T00:00:00Z&end=2026-03-03T00:00:00Z`);
      expect(total.body.resource_classes).toEqual({ VCPU: { peak: 12, integral: 3.5 + 10 + 8 * 12 + 8 * 9 } });
    });

    it('answers an empty range that starts after now', async () => {
      const reply = await usage(`project_id=${project}&start=2999-01-01T00:00:00Z`);
      expect(reply.body).toMatchObject({ start: '2999-01-01T00:00:00Z', end: '2999-01-01T00:00:00Z', resource_classes: {} });
    });

    it('carries the level held before the range into it', async () => {
      const reply = await usage(`project_id=${project}&start=2026-03-02T08:00:00Z&end=2026-03-02T10:00:00Z`);
      expect(reply.body.resource_classes.VCPU.buckets).toEqual([
        { start: '2026-03-02T08:00:00Z', peak: 8, integral: 8 },
        { start: '2026-03-02T09:00:00Z', peak: 0, integral: 0 },
      ]);
    });
  });

  describe('claims arriving together, written in shared transactions (group commit)', () => {
    const projects = [`boot-${randomUUID()}`, `boot-${randomUUID()}`, `boot-${randomUUID()}`];
    const sharedAppends = async () => Number(/^placement_event_store_shared_appends_total (\d+)$/m
      .exec((await app.request('GET', '/metrics')).text)![1]);
    let began: number;
    let sharedBefore: number;

    beforeAll(async () => {
      began = Date.now();
      sharedBefore = await sharedAppends();
      // Claims on one provider would wait for each other: a host each, as in a boot storm.
      const rps = Array.from({ length: 36 }, () => randomUUID());
      for (const rp of rps) {
        expect((await app.request('POST', '/resource_providers', { version: '1.20', body: { name: `rp-${rp}`, uuid: rp } })).status).toBe(200);
        expect((await app.request('PUT', `/resource_providers/${rp}/inventories`, {
          version: '1.20', body: { resource_provider_generation: 0, inventories: { VCPU: { total: 64 }, MEMORY_MB: { total: 65536 } } },
        })).status).toBe(200);
      }
      // A boot storm's claims: each a consumer's first, of three projects and two users.
      const statuses = await Promise.all(rps.map((rp, i) => app.request('PUT', `/allocations/${randomUUID()}`, {
        version: '1.38',
        body: {
          allocations: { [rp]: { resources: { VCPU: 1 + (i % 3), MEMORY_MB: 512 } } }, project_id: projects[i % 3],
          user_id: i % 2 === 0 ? 'alice' : 'bob', consumer_generation: null, consumer_type: 'INSTANCE',
        },
      }).then((reply) => reply.status)));
      expect(statuses.filter((status) => status !== 204)).toEqual([]);
      // One append of several consumers' first claims: one logged transaction of its own.
      const batch = await app.request('POST', '/allocations', {
        version: '1.38',
        body: Object.fromEntries([1, 2, 3].map((vcpu) => [randomUUID(), {
          allocations: { [rps[0]]: { resources: { VCPU: vcpu } } }, project_id: projects[0], user_id: 'carol', consumer_generation: null, consumer_type: 'MIGRATION',
        }])),
      });
      expect(batch.status).toBe(204);
    });

    it('shares transactions between the claims, and counts every claim in its project\'s, user\'s and type\'s series', async () => {
      expect(await sharedAppends()).toBeGreaterThan(sharedBefore);
      const start = iso(began - HOUR);
      const classes = async (filter: string) => (await usage(`${filter}&start=${start}`)).body.resource_classes;
      // Project i holds the claims i, i + 3, ...: VCPU 1 + (i % 3) each, 512 MB each.
      for (const [i, project] of projects.entries()) {
        const vcpu = 12 * (1 + i) + (i === 0 ? 6 : 0);
        expect(await classes(`project_id=${project}`)).toMatchObject({ VCPU: { peak: vcpu }, MEMORY_MB: { peak: 12 * 512 } });
      }
      // Project 0's claims went to alice (even i) and bob (odd i) in turn: i = 0, 6, ... and 3, 9, ...
      expect((await classes(`project_id=${projects[0]}&user_id=alice`)).VCPU.peak).toBe(6);
      expect((await classes(`project_id=${projects[0]}&user_id=bob`)).VCPU.peak).toBe(6);
      expect((await classes(`project_id=${projects[0]}&consumer_type=MIGRATION`)).VCPU.peak).toBe(6);
      expect(await classes(`project_id=${projects[0]}&user_id=carol&consumer_type=INSTANCE`)).toEqual({});
    });

    it('leaves the rows the log makes: verify replays it into memory and finds no drift', async () => {
      const out: string[] = [];
      const code = await runAdmin(['verify'], { DATABASE_URL: app.databaseUrl }, { out: (line) => out.push(line), err: (line) => out.push(line) });
      expect(out.join('\n')).toMatch(/verify: the read models match the log/);
      expect(code).toBe(EXIT.ok);
    });
  });

  describe('refusals', () => {
    const start = 'start=2026-03-01T00:00:00Z';
    const refusal = async (query: string, version = '1.39') => {
      const reply = await usage(query, { version });
      expect(reply.status).toBe(400);
      return reply.body.errors[0];
    };

    it('answers 400 in upstream\'s shape for missing, malformed or unknown parameters', async () => {
      expect((await refusal(start)).detail).toContain("'project_id' is a required property");
      expect(await refusal('project_id=p&start=yesterday')).toMatchObject({
        code: 'placement.query.bad_value', detail: expect.stringContaining("'start' is not an RFC 3339 time"),
      });
      expect((await refusal(`project_id=p&${start}&end=2026-02-01T00:00:00Z`)).detail).toContain("'end' (2026-02-01T00:00:00Z) must be later than 'start'");
      expect((await refusal(`project_id=p&${start}&end=2027-06-01T00:00:00Z`)).detail).toContain('may not exceed 400 days');
      expect((await refusal(`project_id=p&${start}&bucket=week`)).detail).toContain('Invalid query string parameters');
      expect((await refusal(`project_id=p&${start}&consumer_type=instance`)).detail).toContain('does not match');
      expect((await refusal(`project_id=p&${start}&resource_class=vcpu`)).detail).toContain('does not match');
      expect((await refusal(`project_id=p&${start}&limit=3`)).detail).toContain("Additional properties are not allowed ('limit' was unexpected)");
      expect((await refusal('project_id=p&start=2026-03-01')).request_id).toMatch(/^req-/);
    });

    it('needs a token, and admin, service or a reader of the project asked about (placement:ledger:usage)', async () => {
      expect((await usage(`project_id=p&${start}`, { token: null })).status).toBe(401);
      const member = await usage(`project_id=p&${start}`, { token: 'u1:p', headers: { 'x-roles': 'member' } });
      expect(member.status).toBe(403);
      expect(member.body.errors[0].detail).toContain('Policy does not allow placement:ledger:usage to be performed.');
      expect((await usage(`project_id=p&${start}`, { token: 'u1:p', headers: { 'x-roles': 'reader' } })).status).toBe(200);
      expect((await usage(`project_id=p&${start}`, { token: 'u1:other', headers: { 'x-roles': 'reader' } })).status).toBe(403);
      expect((await usage(`project_id=p&${start}`, { token: 'svc:p', headers: { 'x-roles': 'service' } })).status).toBe(200);
      expect((await app.request('GET', `/ledger/usage/totals?project_id=p&${start}`, { token: 'u1:p', headers: { 'x-roles': 'member' } })).status).toBe(403);
      expect((await app.request('GET', `/ledger/usage/totals?project_id=p&${start}`, { token: 'u1:other', headers: { 'x-roles': 'reader' } })).status).toBe(403);
    });
  });

  it('judges the rule against the project asked about, which a policy file can narrow to admin and service', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-policy-'));
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, '"placement:ledger:usage": "rule:admin_or_service_api"\n');
    const narrowed = await startTestApp({ PLACEMENT_POLICY_FILE: file });
    try {
      const ask = (project: string, roles: string) => narrowed.request('GET', `/ledger/usage?project_id=${project}&start=2026-03-01T00:00:00Z`,
        { token: 'u1:p1', headers: { 'x-roles': roles } });
      expect((await ask('p1', 'reader')).status).toBe(403);
      expect((await ask('p2', 'admin')).status).toBe(200);
    } finally {
      await narrowed.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the dashboard page (the console on its usage view) without a token, locked to its own script and this service', async () => {
    const reply = await app.request('GET', '/ledger/dashboard', { token: null });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(reply.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; .*connect-src 'self'/);
    expect(reply.text).toContain('<form id="query"');
    expect(reply.text).toContain("api('/ledger/usage?'");
    // Nothing loaded from elsewhere (the only URL is SVG's namespace name).
    expect(reply.text).not.toMatch(/\bsrc=|<link|@import|https:\/\//);
  });
});
