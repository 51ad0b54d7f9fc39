import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app.js';

/**
 * PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY with a small PLACEMENT_MAX_ALLOCATION_CANDIDATES:
 * depth-first fills the cap from the first root, breadth-first takes one from each root in turn.
 * The settings are read from the environment when the app starts, so each server gets its own.
 */
describe('allocation candidates: generation strategy and cap over HTTP', () => {
  const roots: string[] = [randomUUID(), randomUUID(), randomUUID()];
  const childIds = roots.map(() => [randomUUID(), randomUUID()]);
  const rootOf = new Map<string, string>();

  async function start(strategy: string): Promise<TestApp> {
    process.env.PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY = strategy;
    process.env.PLACEMENT_MAX_ALLOCATION_CANDIDATES = '3';
    try {
      return await startTestApp();
    } finally {
      delete process.env.PLACEMENT_ALLOCATION_CANDIDATES_GENERATION_STRATEGY;
      delete process.env.PLACEMENT_MAX_ALLOCATION_CANDIDATES;
    }
  }

  /** Three compute roots with VCPU 8, each with two children of one PCI_DEVICE, made through the API. */
  async function deploy(app: TestApp): Promise<void> {
    const create = async (uuid: string, name: string, parent?: string) => {
      const body = { uuid, name, ...(parent ? { parent_provider_uuid: parent } : {}) };
      expect((await app.request('POST', '/resource_providers', { version: '1.20', body })).status).toBe(200);
    };
    const stock = async (uuid: string, inventories: object) => {
      const reply = await app.request('PUT', `/resource_providers/${uuid}/inventories`, { body: { resource_provider_generation: 0, inventories } });
      expect(reply.status).toBe(200);
    };
    for (const [r, root] of roots.entries()) {
      await create(root, `cn${r}`);
      await stock(root, { VCPU: { total: 8 } });
      rootOf.set(root, root);
      for (let c = 0; c < 2; c++) {
        const child = childIds[r][c];
        await create(child, `cn${r}-pci${c}`, root);
        await stock(child, { PCI_DEVICE: { total: 1 } });
        rootOf.set(child, root);
      }
    }
  }

  const rootsOfCandidates = async (app: TestApp, query: string) => {
    const reply = await app.request('GET', `/allocation_candidates?${query}`, { version: '1.39' });
    expect(reply.status).toBe(200);
    return reply.body.allocation_requests.map((request: any) => roots.indexOf(rootOf.get(Object.keys(request.allocations)[0])!));
  };
  const QUERY = 'resources=VCPU:1&resources1=PCI_DEVICE:1';

  let depthFirst: TestApp;
  let breadthFirst: TestApp;
  beforeAll(async () => {
    depthFirst = await start('depth-first');
    breadthFirst = await start('breadth-first');
    await deploy(depthFirst);
    await deploy(breadthFirst);
  });
  afterAll(async () => {
    await depthFirst?.close();
    await breadthFirst?.close();
  });

  it('depth-first takes all three from the first root it reaches until the cap', async () => {
    const found = await rootsOfCandidates(depthFirst, QUERY);
    expect(found).toHaveLength(3);
    expect(new Set(found).size).toBe(2);
    expect(found[0]).toBe(found[1]);
  });

  it('breadth-first spreads the cap, and a smaller limit, over every root', async () => {
    const found = await rootsOfCandidates(breadthFirst, QUERY);
    expect(found).toHaveLength(3);
    expect([...found].sort()).toEqual([0, 1, 2]);
    const limited = await rootsOfCandidates(breadthFirst, `${QUERY}&limit=2`);
    expect(new Set(limited).size).toBe(2);
  });
});
