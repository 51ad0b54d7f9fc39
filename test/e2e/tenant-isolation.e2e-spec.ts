import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UpstreamState } from '#domain/index.js';
import { importUpstreamState } from '../bench/upstream-import.js';
import { createTestDatabase } from '../support/database.js';
import { startServerProcess } from '../support/server-process.js';
import { RequestOptions, startTestApp, TestApp } from '../support/test-app.js';

/**
 * Issue 27: no project reads another's data through the ledger. With the default policy the
 * ledger's consumer routes and the console's views are admin's and service's; opened to project
 * readers by a policy file, each judges what it shows against the data's own project: a
 * consumer's (then and now), each event's, each claim's, each row's, each holder's (on a tree now,
 * in a provider's history then) and each top project's; never against what the caller says of itself.
 * The consumer writes opened to project members judge each consumer against who holds it before
 * and who it is charged to after.
 */
const OPENED = [
  'placement:allocations:list', 'placement:ledger:consumers:history', 'placement:ledger:events',
  'placement:ledger:audit:provider_claims', 'placement:ledger:audit:request', 'placement:ledger:audit:stale_consumers',
  'placement:ledger:resource_providers:tree', 'placement:ledger:capacity', 'placement:ledger:resource_providers:history',
  'placement:ledger:revert', 'placement:ledger:restore', 'placement:resource_providers:allocations:list',
];
const WRITES = ['placement:allocations:update', 'placement:allocations:manage', 'placement:allocations:delete', 'placement:reshaper:reshape'];
const MEMBERS = 'role:admin or (role:member and project_id:%(project_id)s) or role:service';

const readerOf = (project: string): RequestOptions => ({ token: `reader-${project}:${project}`, headers: { 'x-roles': 'member,reader' } });
const A = `proj-a-${randomUUID().slice(0, 8)}`;
const B = `proj-b-${randomUUID().slice(0, 8)}`;

async function buildCloud(app: TestApp) {
  const rp = randomUUID();
  const [a1, a2, b1, b2, moved] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const ok = async (method: string, path: string, body?: object) => {
    const reply = await app.request(method, path, { version: '1.39', body });
    expect({ path, status: reply.status, text: reply.text }).toMatchObject({ status: reply.status < 300 ? reply.status : 204 });
    return reply.headers.get('x-openstack-request-id')!;
  };
  const claim = (consumer: string, project: string, generation: number | null, vcpu = 1) => ok('PUT', `/allocations/${consumer}`, {
    allocations: { [rp]: { resources: { VCPU: vcpu } } }, project_id: project, user_id: `user-${project}`, consumer_generation: generation, consumer_type: 'INSTANCE',
  });
  await ok('POST', '/resource_providers', { name: `iso-${rp}`, uuid: rp });
  await ok('PUT', `/resource_providers/${rp}/inventories`, { resource_provider_generation: 0, inventories: { VCPU: { total: 100 } } });
  await claim(a1, A, null);
  await claim(b1, B, null);
  await claim(moved, B, null);
  const moveToA = await claim(moved, A, 1, 2);
  const batch = await ok('POST', '/allocations', {
    [a2]: { allocations: { [rp]: { resources: { VCPU: 3 } } }, project_id: A, user_id: `user-${A}`, consumer_generation: null, consumer_type: 'INSTANCE' },
    [b2]: { allocations: { [rp]: { resources: { VCPU: 6 } } }, project_id: B, user_id: `user-${B}`, consumer_generation: null, consumer_type: 'INSTANCE' },
  });
  const deleteA1 = await ok('DELETE', `/allocations/${a1}`);
  return { rp, a1, a2, b1, b2, moved, batch, moveToA, deleteA1 };
}

type Cloud = Awaited<ReturnType<typeof buildCloud>>;

type HistoryEvent = { type: string; data: { consumers?: object } };
/** What each change of holdings in a provider's history sets, in order. */
const holdingsIn = (events: HistoryEvent[]) =>
  events.filter((event) => event.type === 'ProviderAllocationsChanged').map((event) => event.data.consumers);

/** The consumers and projects an answer names: what must never cross from one project to another. */
const named = (cloud: Cloud, text: string): string[] => [
  ...(['a1', 'a2', 'b1', 'b2', 'moved', 'rp'] as const).filter((key) => text.includes(cloud[key])),
  ...(text.includes(B) ? ['B'] : []), ...(text.includes(A) ? ['A'] : []),
];

describe('tenant isolation: the ledger judged against the data it shows', () => {
  let app: TestApp;
  let opened: TestApp;
  let dir: string;
  let cloud: Cloud;
  let openedCloud: Cloud;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'isolation-'));
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, [
      ...OPENED.map((rule) => `"${rule}": "rule:admin_or_project_reader_or_service_api"\n`), ...WRITES.map((rule) => `"${rule}": "${MEMBERS}"\n`),
    ].join(''));
    [app, opened] = await Promise.all([startTestApp(), startTestApp({ PLACEMENT_POLICY_FILE: file })]);
    [cloud, openedCloud] = await Promise.all([buildCloud(app), buildCloud(opened)]);
    // The stale-consumer audit counts whole seconds since a consumer's last write.
    await new Promise((resolve) => setTimeout(resolve, 1100));
  }, 60_000);
  afterAll(async () => {
    await Promise.all([app?.close(), opened?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('with the default policy', () => {
    it('refuses a project\'s member and reader every consumer route, its own project\'s included', async () => {
      const paths = [
        `/allocations/${cloud.a2}`, `/ledger/consumers/${cloud.a2}/history`, '/ledger/events', '/ledger/events?wait=1',
        `/ledger/audit/request/${cloud.batch}`, '/ledger/audit/stale-consumers?older_than=PT1S', `/ledger/audit/provider-claims?provider=${cloud.rp}`,
        `/ledger/as-of/allocations/${cloud.a2}?as_of=${new Date().toISOString()}`, `/ledger/resource_providers/${cloud.rp}/history`,
        `/ledger/resource_providers/${cloud.rp}/tree`, '/ledger/capacity', `/resource_providers/${cloud.rp}/allocations`,
        `/ledger/as-of/resource_providers/${cloud.rp}/allocations?as_of=${new Date().toISOString()}`,
      ];
      for (const path of paths) {
        const reply = await app.request('GET', path, readerOf(A));
        expect([path, reply.status, named(cloud, reply.text)]).toEqual([path, 403, []]);
      }
      for (const [path, body] of [['/ledger/revert', { request_id: cloud.deleteA1 }], ['/ledger/restore', { as_of: new Date().toISOString(), projects: [A] }]] as const) {
        expect([path, (await app.request('POST', path, { ...readerOf(A), body })).status]).toEqual([path, 403]);
      }
    });

    it('shows admin every project\'s', async () => {
      const events = (await app.request('GET', '/ledger/events?limit=1000')).body.events;
      expect(new Set(events.map((event: { stream: string }) => event.stream))).toContain(`consumer-${cloud.b2}`);
      expect((await app.request('GET', `/ledger/audit/request/${cloud.batch}`)).body.allocations).toHaveLength(2);
    });
  });

  describe('opened to project readers by a policy file', () => {
    const ask = (path: string, project = A) => opened.request('GET', path, { version: '1.39', ...readerOf(project) });

    it('shows a consumer\'s allocations only to its own project, and a consumer holding nothing to nobody but admin', async () => {
      expect((await ask(`/allocations/${openedCloud.a2}`)).status).toBe(200);
      expect((await ask(`/allocations/${openedCloud.b1}`)).status).toBe(403);
      expect((await ask(`/allocations/${openedCloud.b1}`, B)).status).toBe(200);
      expect((await ask(`/allocations/${openedCloud.a1}`)).status).toBe(403);
      expect((await opened.request('GET', `/allocations/${openedCloud.a1}`)).status).toBe(200);
    });

    it('shows a consumer\'s history only to the project that holds it, and of a consumer that moved, only that project\'s part', async () => {
      const history = async (consumer: string, project = A) => ask(`/ledger/consumers/${consumer}/history`, project);
      const removed = await history(openedCloud.a1);
      expect(removed.status).toBe(200);
      expect(removed.body.events.map((event: { type: string }) => event.type)).toEqual(['ConsumerAllocationsReplaced', 'ConsumerRemoved']);
      expect((await history(openedCloud.b1)).status).toBe(403);
      expect((await history(randomUUID())).status).toBe(403);
      const moved = await history(openedCloud.moved);
      expect(moved.body.events.map((event: { data: { project_id: string } }) => event.data.project_id)).toEqual([A]);
      expect((await history(openedCloud.moved, B)).status).toBe(403);
      expect((await opened.request('GET', `/ledger/consumers/${openedCloud.moved}/history`)).body.events).toHaveLength(2);
    });

    it('feeds each project only its own consumers\' events: no provider, no other project', async () => {
      // A consumer's claims name the provider they hold on: that much of it its project may see.
      for (const [project, mine] of [[A, ['a1', 'a2', 'moved', 'rp', 'A']], [B, ['b1', 'b2', 'moved', 'rp', 'B']]] as const) {
        const reply = await ask('/ledger/events?limit=1000', project);
        expect(reply.status).toBe(200);
        expect(named(openedCloud, reply.text).sort()).toEqual([...mine].sort());
        for (const event of reply.body.events) expect(event.stream).toMatch(/^consumer-/);
      }
    });

    it('holds a long poll past other projects\' writes and answers with its own project\'s', async () => {
      const head = (await opened.request('GET', '/ledger/events?limit=1000')).body.next;
      const waiting = ask(`/ledger/events?wait=10&after=${head}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const other = randomUUID();
      const mine = randomUUID();
      for (const [consumer, project] of [[other, B], [mine, A]]) {
        expect((await opened.request('PUT', `/allocations/${consumer}`, { version: '1.39', body: {
          allocations: { [openedCloud.rp]: { resources: { VCPU: 1 } } }, project_id: project, user_id: 'u', consumer_generation: null, consumer_type: 'INSTANCE',
        } })).status).toBe(204);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const answer = await waiting;
      expect(answer.body.events.map((event: { stream: string }) => event.stream)).toEqual([`consumer-${mine}`]);
      expect(answer.text).not.toContain(other);
    });

    it('audits a request that wrote two projects\' consumers showing each project its own part', async () => {
      const audit = await ask(`/ledger/audit/request/${openedCloud.batch}`);
      expect(audit.status).toBe(200);
      expect(audit.body.allocations.map((write: { consumer_uuid: string }) => write.consumer_uuid)).toEqual([openedCloud.a2]);
      expect(named(openedCloud, audit.text).sort()).toEqual(['A', 'a2', 'rp'].sort());
      const provider = (await opened.request('GET', `/ledger/audit/request/${openedCloud.batch}`)).body;
      expect(provider.events.map((event: { stream: string }) => event.stream)).toContain(`provider-${openedCloud.rp}`);
      expect((await ask(`/ledger/audit/request/req-${randomUUID()}`)).status).toBe(403);
      expect((await opened.request('GET', `/ledger/audit/request/req-${randomUUID()}`)).status).toBe(404);
    });

    it('lists stale consumers and a provider\'s claims of the caller\'s project only', async () => {
      const stale = await ask('/ledger/audit/stale-consumers?older_than=PT1S&limit=1');
      expect(stale.body.consumers.map((consumer: { consumer_uuid: string }) => consumer.consumer_uuid)).toHaveLength(1);
      expect(named(openedCloud, (await ask('/ledger/audit/stale-consumers?older_than=PT1S')).text).sort()).toEqual(['A', 'a2', 'moved', 'rp'].sort());
      const claims = (await ask(`/ledger/audit/provider-claims?provider=${openedCloud.rp}`, B)).body.claims;
      expect(claims.map((claim: { consumer_uuid: string }) => claim.consumer_uuid)).toEqual(expect.arrayContaining([openedCloud.b1, openedCloud.b2]));
      expect(new Set(claims.map((claim: { project_id: string }) => claim.project_id))).toEqual(new Set([B]));
    });

    it('shows a provider\'s tree and the cloud\'s capacity whole, and of their holders and top projects only the caller\'s', async () => {
      const tree = `/ledger/resource_providers/${openedCloud.rp}/tree`;
      type Figures = { resource_class: string; used: number; top_projects: { project_id: string; used: number }[] };
      const vcpuOf = async (reply: Promise<{ body: { resource_classes: Figures[] } }>) =>
        (await reply).body.resource_classes.find((figures) => figures.resource_class === 'VCPU')!;
      const whole = await vcpuOf(opened.request('GET', '/ledger/capacity?top=100'));
      // A's VCPU and B's differ (b2 holds 6), so a reader shown the other's figure is caught.
      const share = (project: string) => whole.top_projects.filter((top) => top.project_id === project);
      expect(share(A)[0].used).not.toBe(share(B)[0].used);
      for (const [project, holders, top] of [[A, ['a2', 'moved'], 'A'], [B, ['b1', 'b2'], 'B']] as const) {
        expect(named(openedCloud, (await ask(tree, project)).text).sort()).toEqual([...holders, 'rp'].sort());
        const capacity = ask('/ledger/capacity?top=100', project);
        expect(named(openedCloud, (await capacity).text)).toEqual([top]);
        expect(await vcpuOf(capacity)).toEqual({ ...whole, top_projects: share(project) });
      }
      expect(named(openedCloud, (await opened.request('GET', tree)).text).sort()).toEqual(['a2', 'b1', 'b2', 'moved', 'rp'].sort());
      const nobody = await ask('/ledger/capacity', `proj-c-${randomUUID().slice(0, 8)}`);
      expect([nobody.status, named(openedCloud, nobody.text)]).toEqual([200, []]);
      // What belongs to no project, a provider's usage and the cloud's figures, a reader sees whole.
      const used = (view: { resource_classes: { resource_class: string; used: number }[] }) => view.resource_classes.map((c) => [c.resource_class, c.used]);
      expect(used((await ask('/ledger/capacity')).body)).toEqual(used((await opened.request('GET', '/ledger/capacity')).body));
      expect((await ask(tree, B)).body.providers[0].inventories).toEqual((await opened.request('GET', tree)).body.providers[0].inventories);
    });

    it('time-travels a consumer only for the project that held it then', async () => {
      const past = (await opened.request('GET', `/ledger/consumers/${openedCloud.a1}/history`)).body.events[0].position;
      expect((await ask(`/ledger/as-of/allocations/${openedCloud.a1}?as_of=${past}`)).status).toBe(200);
      expect((await ask(`/ledger/as-of/allocations/${openedCloud.a1}?as_of=${past}`, B)).status).toBe(403);
    });

    it('shows a provider\'s history whole but for its holders, each only to the project that held it then', async () => {
      const path = `/ledger/resource_providers/${openedCloud.rp}/history?limit=1000`;
      const { a1, a2, b1, b2, moved } = openedCloud;
      const ofA = await ask(path);
      expect(ofA.body.events.slice(0, 2).map((event: HistoryEvent) => event.type)).toEqual(['ResourceProviderCreated', 'InventoriesSet']);
      // The consumer that moved shows A only what it held once A's, and B only what it held before.
      expect(holdingsIn(ofA.body.events).slice(0, 4)).toEqual([{ [a1]: { VCPU: 1 } }, { [moved]: { VCPU: 2 } }, { [a2]: { VCPU: 3 } }, { [a1]: {} }]);
      expect(named(openedCloud, ofA.text).sort()).toEqual(['a1', 'a2', 'moved', 'rp']);
      const ofB = await ask(path, B);
      expect(holdingsIn(ofB.body.events).slice(0, 3)).toEqual([{ [b1]: { VCPU: 1 } }, { [moved]: { VCPU: 1 } }, { [b2]: { VCPU: 6 } }]);
      expect(named(openedCloud, ofB.text).sort()).toEqual(['b1', 'b2', 'moved', 'rp']);
      const nobody = await ask(path, `proj-c-${randomUUID().slice(0, 8)}`);
      expect(nobody.body.events.map((event: HistoryEvent) => event.type)).toEqual(['ResourceProviderCreated', 'InventoriesSet']);
      const all = holdingsIn((await opened.request('GET', path)).body.events);
      expect(all.slice(0, 6)).toEqual([
        { [a1]: { VCPU: 1 } }, { [b1]: { VCPU: 1 } }, { [moved]: { VCPU: 1 } }, { [moved]: { VCPU: 2 } }, { [a2]: { VCPU: 3 }, [b2]: { VCPU: 6 } }, { [a1]: {} },
      ]);
    });

    it('lists a provider\'s consumers, now and as of a past point, each only to the project that held it then', async () => {
      const { rp, moved } = openedCloud;
      const holders = async (path: string, project?: string) => {
        const reply = project ? await ask(path, project) : await opened.request('GET', path, { version: '1.39' });
        expect([path, reply.status, reply.body.resource_provider_generation]).toEqual([path, 200, expect.any(Number)]);
        return named(openedCloud, JSON.stringify(Object.keys(reply.body.allocations))).sort();
      };
      const now = `/resource_providers/${rp}/allocations`;
      expect(await holders(now)).toEqual(['a2', 'b1', 'b2', 'moved']);
      expect(await holders(now, A)).toEqual(['a2', 'moved']);
      expect(await holders(now, B)).toEqual(['b1', 'b2']);
      expect(await holders(now, `proj-c-${randomUUID().slice(0, 8)}`)).toEqual([]);
      // Once B's claim for the consumer that moved reached the provider: B's then.
      const history = (await opened.request('GET', `/ledger/resource_providers/${rp}/history?limit=1000`)).body.events as
        (HistoryEvent & { position: string })[];
      const claimedByB = history.find((event) => event.type === 'ProviderAllocationsChanged' && event.data.consumers && moved in event.data.consumers)!;
      const then = `/ledger/as-of/resource_providers/${rp}/allocations?as_of=${claimedByB.position}`;
      expect(await holders(then)).toEqual(['a1', 'b1', 'moved']);
      expect(await holders(then, A)).toEqual(['a1']);
      expect(await holders(then, B)).toEqual(['b1', 'moved']);
    });

    it('judges an imported provider\'s holdings against the consumers imported after it', async () => {
      const [rp, ofA, ofB] = [randomUUID(), randomUUID(), randomUUID()];
      const at = '2026-01-01T00:00:00.000Z';
      const consumer = (uuid: string, project: string, vcpu: number) => ({
        uuid, projectId: project, userId: `user-${project}`, consumerType: 'INSTANCE', generation: 1, allocations: { [rp]: { VCPU: vcpu } }, modifiedAt: at,
      });
      const state: UpstreamState = {
        revision: '422ece571366', resourceClasses: [], traits: [], consumers: [consumer(ofA, A, 1), consumer(ofB, B, 2)],
        providers: [{
          uuid: rp, name: `imported-${rp}`, generation: 2, parentUuid: null, modifiedAt: at, inventoriesModifiedAt: at, traits: [], aggregates: [],
          inventories: { VCPU: { total: 8, reserved: 0, min_unit: 1, max_unit: 8, step_size: 1, allocation_ratio: 1 } },
        }],
      };
      const db = await createTestDatabase('pl_e2e');
      await importUpstreamState(state, db.url);
      const server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'noauth2', PLACEMENT_POLICY_FILE: join(dir, 'policy.yaml') });
      try {
        const holdings = async (project: string) => {
          const { token, headers } = readerOf(project);
          const reply = await fetch(`${server.url}/ledger/resource_providers/${rp}/history`, { headers: { 'x-auth-token': token!, ...headers } });
          return holdingsIn((await reply.json() as { events: HistoryEvent[] }).events);
        };
        expect(await holdings(A)).toEqual([{ [ofA]: { VCPU: 1 } }]);
        expect(await holdings(B)).toEqual([{ [ofB]: { VCPU: 2 } }]);
      } finally {
        await server.stop();
        await db.drop();
      }
    }, 120_000);

    // Last: its revert brings a1 back, which the checks above do not expect.
    it('lets a project take back its own consumers only, refused before anything is planned', async () => {
      const undo = (path: string, body: object, project = A) => opened.request('POST', path, { version: '1.39', body, ...readerOf(project) });
      const asOf = new Date().toISOString();
      const { rp, a1, a2, b1, batch, moveToA, deleteA1 } = openedCloud;
      const refused: [string, object][] = [
        ['/ledger/restore', { as_of: asOf, consumers: [b1] }], ['/ledger/restore', { as_of: asOf, consumers: [a2, b1] }],
        ['/ledger/restore', { as_of: asOf, projects: [B] }], ['/ledger/restore', { as_of: asOf, providers: [rp], with_consumers: false }],
        // Two projects' consumers; the consumer that was B's before this request made it A's; a request never written.
        ['/ledger/revert', { request_id: batch }], ['/ledger/revert', { request_id: moveToA }], ['/ledger/revert', { request_id: `req-${randomUUID()}` }],
      ];
      for (const [path, body] of refused) {
        const reply = await undo(path, body);
        expect([path, body, reply.status, named(openedCloud, reply.text)]).toEqual([path, body, 403, []]);
      }
      expect((await opened.request('POST', '/ledger/revert', { version: '1.39', body: { request_id: `req-${randomUUID()}` } })).status).toBe(404);
      expect((await opened.request('POST', '/ledger/revert', { version: '1.39', body: { request_id: batch } })).status).toBe(200);
      expect((await undo('/ledger/restore', { as_of: asOf, projects: [A] })).status).toBe(200);
      expect((await undo('/ledger/revert', { request_id: deleteA1 }, B)).status).toBe(403);
      const plan = await undo('/ledger/revert', { request_id: deleteA1 });
      expect([plan.status, plan.body.status, named(openedCloud, plan.text).sort()]).toEqual([200, 'ready', ['A', 'a1', 'rp']]);
      const applied = await undo('/ledger/revert', { request_id: deleteA1, apply: true, plan_hash: plan.body.plan_hash });
      expect([applied.status, applied.body.applied]).toEqual([200, true]);
      expect((await opened.request('GET', `/allocations/${a1}`, { version: '1.39' })).body.allocations[rp].resources).toEqual({ VCPU: 1 });
    });

    it('lets a project\'s members write their own project\'s consumers only, and a refused write leaves no trace', async () => {
      const rp = randomUUID();
      const [mine, theirs, stray] = [randomUUID(), randomUUID(), randomUUID()];
      const write = (method: string, path: string, body?: object, project = A, roles = 'member,reader') => opened.request(method, path, {
        version: '1.39', body, token: `user-${project}:${project}`, headers: { 'x-roles': roles, ...(method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {}) },
      });
      const claim = (project: string, generation: number | null, vcpu = 1) => ({
        allocations: { [rp]: { resources: { VCPU: vcpu } } }, project_id: project, user_id: `user-${project}`, consumer_generation: generation, consumer_type: 'INSTANCE',
      });
      const asAdmin = async (consumer: string) => (await opened.request('GET', `/allocations/${consumer}`, { version: '1.39' })).body;
      const eventsOf = async (consumer: string) => (await opened.request('GET', `/ledger/consumers/${consumer}/history`)).body.events?.length ?? 0;
      expect((await opened.request('POST', '/resource_providers', { version: '1.39', body: { name: `writes-${rp}`, uuid: rp } })).status).toBe(200);
      await opened.request('PUT', `/resource_providers/${rp}/inventories`, { version: '1.39', body: { resource_provider_generation: 0, inventories: { VCPU: { total: 50 } } } });
      expect((await write('PUT', `/allocations/${theirs}`, claim(B, null), B)).status).toBe(204);

      expect((await write('PUT', `/allocations/${mine}`, claim(A, null))).status).toBe(204);
      expect((await write('PUT', `/allocations/${mine}`, claim(A, 1), A, 'reader')).status).toBe(403);
      const refused: [string, string, object?][] = [
        // Charging B with a consumer; B's consumer as B's or as A's, new or not; both at once; a patch, a removal, a reshape of B's.
        ['PUT', `/allocations/${stray}`, claim(B, null)], ['PUT', `/allocations/${theirs}`, claim(B, 1)], ['PUT', `/allocations/${theirs}`, claim(A, 1)],
        ['PUT', `/allocations/${theirs}`, claim(A, null)], ['PUT', `/allocations/${mine}`, claim(B, 1)],
        ['POST', '/allocations', { [mine]: claim(A, 1, 2), [theirs]: claim(B, 1, 2) }], ['POST', '/allocations', { [stray]: claim(B, null) }],
        ['PATCH', `/ledger/allocations/${theirs}`, { consumer_generation: 1, allocations: { [rp]: { resources: { VCPU: 5 } } } }],
        ['PATCH', `/ledger/allocations/${mine}`, { consumer_generation: 1, project_id: B }], ['PATCH', `/ledger/allocations/${stray}`, { consumer_generation: 1 }],
        ['DELETE', `/allocations/${theirs}`], ['DELETE', `/allocations/${stray}`],
        ['POST', '/reshaper', { inventories: { [rp]: { resource_provider_generation: 1, inventories: { VCPU: { total: 50 } } } }, allocations: { [theirs]: claim(B, 1) } }],
      ];
      for (const [method, path, body] of refused) {
        const reply = await write(method, path, body);
        expect([method, path, reply.status, reply.text.includes('generation')]).toEqual([method, path, 403, false]);
      }
      expect([await asAdmin(theirs), await asAdmin(mine), await asAdmin(stray)]).toMatchObject([
        { allocations: { [rp]: { resources: { VCPU: 1 } } }, project_id: B, consumer_generation: 1 },
        { allocations: { [rp]: { resources: { VCPU: 1 } } }, project_id: A, consumer_generation: 1 },
        { allocations: {} },
      ]);
      expect([await eventsOf(theirs), await eventsOf(mine), await eventsOf(stray)]).toEqual([1, 1, 0]);

      // B's member may do to B's consumer what A's was refused.
      expect((await write('PATCH', `/ledger/allocations/${theirs}`, { consumer_generation: 1, allocations: { [rp]: { resources: { VCPU: 2 } } } }, B)).status).toBe(204);
      expect((await write('PATCH', `/ledger/allocations/${mine}`, { consumer_generation: 1, allocations: { [rp]: { resources: { VCPU: 3 } } } })).status).toBe(204);
      expect((await write('POST', '/allocations', { [mine]: claim(A, 2, 4), [stray]: claim(A, null) })).status).toBe(204);
      expect((await write('POST', '/reshaper', {
        inventories: { [rp]: { resource_provider_generation: 6, inventories: { VCPU: { total: 60 } } } }, allocations: { [mine]: claim(A, 3, 4) },
      })).status).toBe(204);
      expect((await write('DELETE', `/allocations/${mine}`)).status).toBe(204);
      expect((await write('DELETE', `/allocations/${mine}`)).status).toBe(403);
      expect((await opened.request('DELETE', `/allocations/${mine}`)).status).toBe(404);
      expect([await asAdmin(theirs), await asAdmin(mine), await asAdmin(stray)]).toMatchObject([
        { allocations: { [rp]: { resources: { VCPU: 2 } } }, project_id: B }, { allocations: {} }, { allocations: { [rp]: { resources: { VCPU: 1 } } }, project_id: A },
      ]);
    });
  });
});
