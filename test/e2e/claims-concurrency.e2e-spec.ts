import { randomUUID } from 'node:crypto';
import type { RunningApp } from '#placement-api/bootstrap.js';
import { Reply, startSiblingApp, startTestApp, TestApp } from '../support/test-app.js';

/**
 * Many HTTP clients race for providers with little room, all at once. Whatever the interleaving:
 * exactly as many claims succeed as there is capacity, no provider is ever over capacity, what was
 * acknowledged is readable, what was refused left no trace, and usages add up per provider and project.
 */
describe('claims under concurrency (real HTTP, real PostgreSQL)', () => {
  let app: TestApp;
  /** A second API instance on the same database, for claims that race across processes. */
  let sibling: RunningApp;
  let siblingUrl: string;
  beforeAll(async () => {
    app = await startTestApp();
    ({ running: sibling, url: siblingUrl } = await startSiblingApp(app));
  });
  afterAll(async () => {
    await sibling?.close();
    await app.close();
  });

  const PROJECTS = ['proj-a', 'proj-b', 'proj-c'];

  async function provider(inventories: object): Promise<string> {
    const uuid = randomUUID();
    expect((await app.request('POST', '/resource_providers', { version: '1.20', body: { name: `rp-${uuid}`, uuid } })).status).toBe(200);
    const reply = await app.request('PUT', `/resource_providers/${uuid}/inventories`, {
      version: '1.20', body: { resource_provider_generation: 0, inventories },
    });
    expect(reply.status).toBe(200);
    return uuid;
  }

  interface Attempt {
    readonly consumer: string;
    readonly project: string;
    readonly allocations: Record<string, { resources: Record<string, number> }>;
    /** Sent to the sibling instance rather than the first. */
    readonly viaSibling?: boolean;
    reply?: Reply;
  }

  async function claim(attempt: Attempt): Promise<Reply> {
    const body = { allocations: attempt.allocations, project_id: attempt.project, user_id: 'racer', consumer_generation: null };
    if (!attempt.viaSibling) return app.request('PUT', `/allocations/${attempt.consumer}`, { version: '1.28', body });
    const reply = await fetch(`${siblingUrl}/allocations/${attempt.consumer}`, {
      method: 'PUT', body: JSON.stringify(body),
      headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.28', 'content-type': 'application/json' },
    });
    const text = await reply.text();
    return { status: reply.status, body: text ? JSON.parse(text) : undefined } as Reply;
  }

  /** Fires every attempt at once and checks that each answer is a success or an upstream-shaped refusal. */
  async function race(attempts: Attempt[]): Promise<{ won: Attempt[]; lost: Attempt[] }> {
    await Promise.all(attempts.map(async (a) => { a.reply = await claim(a); }));
    for (const a of attempts) {
      expect([204, 409]).toContain(a.reply!.status);
      if (a.reply!.status === 409) expect(a.reply!.body.errors[0].detail).toContain('The requested amount would exceed the capacity');
    }
    return { won: attempts.filter((a) => a.reply!.status === 204), lost: attempts.filter((a) => a.reply!.status !== 204) };
  }

  /** Acknowledged claims are readable as sent; refused ones left nothing behind. */
  async function checkTraces(won: Attempt[], lost: Attempt[]) {
    for (const a of won) {
      const shown = (await app.request('GET', `/allocations/${a.consumer}`, { version: '1.28' })).body;
      expect(shown).toMatchObject({ project_id: a.project, consumer_generation: 1 });
      for (const [rp, { resources }] of Object.entries(a.allocations)) expect(shown.allocations[rp].resources).toEqual(resources);
    }
    for (const a of lost) expect((await app.request('GET', `/allocations/${a.consumer}`)).body).toEqual({ allocations: {} });
  }

  /** Per provider: usages never above capacity, equal to the sum of acknowledged claims, listed consumer by consumer. */
  async function checkProvider(rp: string, capacity: Record<string, number>, won: Attempt[]) {
    const holders = won.filter((a) => a.allocations[rp]);
    const expected: Record<string, number> = {};
    for (const a of holders) {
      for (const [rc, n] of Object.entries(a.allocations[rp].resources)) expected[rc] = (expected[rc] ?? 0) + n;
    }
    const { usages, resource_provider_generation } = (await app.request('GET', `/resource_providers/${rp}/usages`)).body;
    for (const [rc, limit] of Object.entries(capacity)) {
      expect(usages[rc]).toBe(expected[rc] ?? 0);
      expect(usages[rc]).toBeLessThanOrEqual(limit);
    }
    // Every successful claim moved the generation once, on top of the inventory write.
    expect(resource_provider_generation).toBe(1 + holders.length);
    const listed = (await app.request('GET', `/resource_providers/${rp}/allocations`)).body.allocations;
    expect(Object.keys(listed).sort()).toEqual(holders.map((a) => a.consumer).sort());
  }

  async function checkProjects(won: Attempt[], rc: string, projects = PROJECTS) {
    for (const project of projects) {
      const expected = won.filter((a) => a.project === project)
        .flatMap((a) => Object.values(a.allocations).map(({ resources }) => resources[rc] ?? 0))
        .reduce((sum, n) => sum + n, 0);
      const { usages } = (await app.request('GET', `/usages?project_id=${project}`, { version: '1.9' })).body;
      expect(usages[rc] ?? 0).toBe(expected);
    }
  }

  it('one class per provider: exactly capacity claims win on each of several small providers', async () => {
    // Each has room for 3 VCPU: plainly, through reserved, and through an allocation ratio.
    const computes = [
      await provider({ VCPU: { total: 3 } }),
      await provider({ VCPU: { total: 5, reserved: 2 } }),
      await provider({ VCPU: { total: 2, allocation_ratio: 1.5 } }),
      await provider({ VCPU: { total: 3 } }),
    ];
    const attempts: Attempt[] = [];
    for (let i = 0; i < 48; i++) {
      const rp = computes[i % computes.length];
      attempts.push({ consumer: randomUUID(), project: PROJECTS[i % PROJECTS.length], allocations: { [rp]: { resources: { VCPU: 1 } } } });
    }
    const { won, lost } = await race(attempts);
    expect(won).toHaveLength(3 * computes.length);
    for (const rp of computes) await checkProvider(rp, { VCPU: 3 }, won);
    await checkTraces(won, lost);
    await checkProjects(won, 'VCPU');
  });

  it('two API instances on one database, each following a claim with the next before it is answered: capacity holds', async () => {
    // Within each instance a claim on a provider decides on what the claim before it will leave
    // and appends behind it. Across instances they race in the log, and a claim whose instance
    // lost is decided again, with those resting on it. The sibling's claims are larger, so one
    // written on a revision the other instance took could over-commit. (Which interleavings
    // occur is up to timing; append-batches.int-spec.ts and command-runner.spec.ts pin them.)
    const computes = [await provider({ VCPU: { total: 8 } }), await provider({ VCPU: { total: 8 } })];
    // Projects of its own: the tests before claim VCPU for PROJECTS.
    const projects = ['proj-x', 'proj-y'];
    const attempts: Attempt[] = [];
    for (let i = 0; i < 48; i++) {
      const viaSibling = i % 2 === 1;
      attempts.push({
        consumer: randomUUID(), project: projects[i % projects.length], viaSibling,
        allocations: { [computes[Math.floor(i / 2) % 2]]: { resources: { VCPU: viaSibling ? 3 : 1 } } },
      });
    }
    const { won, lost } = await race(attempts);
    for (const rp of computes) await checkProvider(rp, { VCPU: 8 }, won);
    await checkTraces(won, lost);
    await checkProjects(won, 'VCPU', projects);
  });

  it('claims across two providers: a shared disk is the bottleneck and is never over-committed', async () => {
    const disk = await provider({ DISK_GB: { total: 45, step_size: 10, max_unit: 20 } });
    const computes = [await provider({ VCPU: { total: 64 } }), await provider({ VCPU: { total: 64 } })];
    const attempts: Attempt[] = [];
    for (let i = 0; i < 40; i++) {
      attempts.push({
        consumer: randomUUID(),
        project: PROJECTS[i % PROJECTS.length],
        allocations: { [computes[i % 2]]: { resources: { VCPU: 2 } }, [disk]: { resources: { DISK_GB: 10 } } },
      });
    }
    const { won, lost } = await race(attempts);
    expect(won).toHaveLength(4);
    await checkProvider(disk, { DISK_GB: 45 }, won);
    for (const rp of computes) await checkProvider(rp, { VCPU: 64 }, won);
    await checkTraces(won, lost);
    await checkProjects(won, 'DISK_GB');
  });

  it('racing to take over one consumer\'s holding: only one client\'s generation still matches', async () => {
    const rp = await provider({ VCPU: { total: 2 } });
    const instance = randomUUID();
    const first = await app.request('PUT', `/allocations/${instance}`, {
      version: '1.28', body: { allocations: { [rp]: { resources: { VCPU: 2 } } }, project_id: 'p', user_id: 'u', consumer_generation: null },
    });
    expect(first.status).toBe(204);
    const migrations = Array.from({ length: 20 }, () => randomUUID());
    const replies = await Promise.all(migrations.map((migration) => app.request('POST', '/allocations', {
      version: '1.28',
      body: {
        [instance]: { allocations: {}, project_id: 'p', user_id: 'u', consumer_generation: 1 },
        [migration]: { allocations: { [rp]: { resources: { VCPU: 2 } } }, project_id: 'p', user_id: 'u', consumer_generation: null },
      },
    })));
    const winners = migrations.filter((_, i) => replies[i].status === 204);
    expect(winners).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 204)) {
      expect(reply.status).toBe(409);
      expect(reply.body.errors[0].code).toBe('placement.concurrent_update');
    }
    const listed = (await app.request('GET', `/resource_providers/${rp}/allocations`)).body;
    expect(listed).toEqual({ resource_provider_generation: 3, allocations: { [winners[0]]: { resources: { VCPU: 2 } } } });
  });
});
