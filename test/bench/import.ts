import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { inventoryWithDefaults, UpstreamConsumer, UpstreamProvider, UpstreamState } from '#domain/index.js';
import { ADMIN_URL } from '../support/database.js';
import type { Dialect } from '../support/upstream-database.js';
import { importUpstreamState, timedAdmin } from './upstream-import.js';

/**
 * npm run bench:import [-- --source mysql|postgresql] [--providers N] [--consumers N]
 * Builds an upstream-shaped database (perfload's nested trees of 7 providers; every consumer
 * holds DISK_GB on a compute node and VCPU and MEMORY_MB on one of its NUMA nodes: 3 rows),
 * then imports it as an operator does (`placement-admin import`, a process of its own) into a
 * fresh database, verifies it (`import --verify`) and reports rows/s. Goal: the whole import
 * of 10,000 providers, 100,000 consumers and 300,000 allocations in under 60 s.
 */
const GOAL_SECONDS = 60;
const T = '2025-06-01T12:00:00.000Z';

function parseArgs(argv: string[]) {
  const value = (name: string, fallback: string) => { const at = argv.indexOf(name); return at >= 0 ? argv[at + 1] : fallback; };
  const source = value('--source', 'mysql') as Dialect;
  if (source !== 'mysql' && source !== 'postgresql') throw new Error('--source must be mysql or postgresql');
  return { source, providers: Number(value('--providers', '10000')), consumers: Number(value('--consumers', '100000')) };
}

const uuid = (kind: number, n: number) => `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** perfload's nested tree, with allocation ratios that let the consumers fit. */
function nestedCloud(providers: number, consumerCount: number): UpstreamState {
  const trees = Math.ceil(providers / 7);
  const list: UpstreamProvider[] = [];
  const rp = (tree: number, slot: number, name: string, parent: number | null, inventories: UpstreamProvider['inventories'], traits: string[]) => {
    list.push({
      uuid: uuid(tree, slot), name: `${name}-${tree}`, generation: 1 + (slot % 3), parentUuid: parent === null ? null : uuid(tree, parent),
      modifiedAt: T, inventories, inventoriesModifiedAt: T, traits, aggregates: slot === 0 ? [uuid(0xa99, tree % 10)] : [],
    });
  };
  for (let t = 0; t < trees; t++) {
    rp(t, 0, 'cn', null, { DISK_GB: inventoryWithDefaults({ total: 20480 }) }, ['COMPUTE_VOLUME_MULTI_ATTACH']);
    rp(t, 1, 'numa0', 0, { VCPU: inventoryWithDefaults({ total: 4, reserved: 2, allocation_ratio: 64 }),
      MEMORY_MB: inventoryWithDefaults({ total: 2048, min_unit: 512, step_size: 256, allocation_ratio: 64 }) }, ['HW_NUMA_ROOT']);
    rp(t, 2, 'fpga0', 1, { FPGA: inventoryWithDefaults({ total: 1 }) }, []);
    rp(t, 3, 'pgpu0', 1, { VGPU: inventoryWithDefaults({ total: 8 }) }, []);
    rp(t, 4, 'numa1', 0, { VCPU: inventoryWithDefaults({ total: 4, allocation_ratio: 64 }),
      MEMORY_MB: inventoryWithDefaults({ total: 2048, min_unit: 256, max_unit: 1024, allocation_ratio: 64 }) }, ['HW_NUMA_ROOT', 'CUSTOM_FOO']);
    rp(t, 5, 'fpga1_0', 4, { FPGA: inventoryWithDefaults({ total: 1 }) }, []);
    rp(t, 6, 'fpga1_1', 4, { FPGA: inventoryWithDefaults({ total: 1 }) }, []);
  }
  const consumers: UpstreamConsumer[] = [];
  for (let c = 0; c < consumerCount; c++) {
    const tree = c % trees, numa = c % 2 === 0 ? 1 : 4;
    consumers.push({
      uuid: uuid(0xc0, c), projectId: `project-${c % 100}`, userId: `user-${c % 1000}`, consumerType: c % 10 === 0 ? null : 'INSTANCE',
      generation: 1 + (c % 4), modifiedAt: T,
      allocations: { [uuid(tree, 0)]: { DISK_GB: 10 }, [uuid(tree, numa)]: { VCPU: 1, MEMORY_MB: 512 } },
    });
  }
  return { revision: '422ece571366', resourceClasses: [], traits: [{ name: 'CUSTOM_FOO', modifiedAt: T }], providers: list, consumers };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  console.log(`bench:import: building an upstream ${args.source} database: ${args.providers} providers, ${args.consumers} consumers`);
  const state = nestedCloud(args.providers, args.consumers);
  const targetName = `pl_bench_import_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${targetName}`);
    const target = new URL(ADMIN_URL);
    target.pathname = `/${targetName}`;
    let verified: { code: number | null; seconds: number; output: string } = { code: null, seconds: 0, output: '' };
    const imported = await importUpstreamState(state, target.toString(), {
      dialect: args.source,
      afterImport: async (sourceUrl) => {
        verified = await timedAdmin(['import', '--verify', '--from', sourceUrl], target.toString());
      },
    });
    for (const line of imported.output.split('\n')) if (line.trim() && !line.includes('replaying')) console.log(`  ${line}`);
    const rate = imported.rows / imported.seconds;
    console.log(`bench:import: ${args.source} source, ${imported.rows} rows (${imported.allocations} allocations): import ${imported.seconds.toFixed(1)} s `
      + `(${Math.round(rate)} rows/s), verify ${verified.seconds.toFixed(1)} s (exit ${verified.code})`);
    console.log(`bench:import: goal: the whole import under ${GOAL_SECONDS} s: ${imported.seconds < GOAL_SECONDS && verified.code === 0 ? 'MET' : 'NOT MET'}`);
    if (verified.code !== 0) {
      console.log(verified.output);
      process.exitCode = 1;
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${targetName} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => { console.error(error); process.exitCode = 1; });
