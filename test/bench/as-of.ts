import 'reflect-metadata';
import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { LogPoint, NewEvent, PostgresEventStore, RecordedEvent, recordedMicros } from '#event-store/index.js';
import { openDatabase } from '#placement/persistence/database.js';
import { PROVIDER_FOLD } from '#placement/ledger/snapshots/folds.js';
import { StreamSnapshots } from '#placement/ledger/snapshots/snapshot-store.js';
import { StreamStates } from '#placement/ledger/snapshots/stream-states.js';

/**
 * npm run bench:as-of [-- --events N]
 * One provider with N events in its stream (default 100,000) and one with ten, in a fresh
 * database; then the provider's state as of random points of its stream (positions and times),
 * from the stream snapshots, against a replay from the stream's start. Goal: p50 under 20 ms.
 */
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const GOAL_MS = 20;
const PER_APPEND = 1000;
const SAMPLES = 200;

function eventsArg(argv: string[]): number {
  const at = argv.indexOf('--events');
  const events = at >= 0 ? Number(argv[at + 1]) : 100_000;
  if (!Number.isInteger(events) || events < 10) throw new Error('--events needs an integer of at least 10');
  return events;
}

/** A provider's life: created, then inventories, traits, aggregates and the claims of 50 consumers, over and over. */
function fact(uuid: string, revision: number): NewEvent {
  const generation = revision;
  if (revision === 0) return { type: 'ResourceProviderCreated', data: { uuid, name: `bench-${uuid}`, parent_provider_uuid: null, generation, v: 1 } };
  switch (revision % 4) {
    case 0: return { type: 'InventoriesSet', data: { inventories: { VCPU: { total: 64 + (revision % 7), reserved: 0, min_unit: 1, max_unit: 64, step_size: 1, allocation_ratio: 4 } }, generation, v: 1 } };
    case 1: return { type: 'TraitsSet', data: { traits: [`CUSTOM_T${revision % 5}`, 'HW_CPU_X86_AVX2'], generation, v: 1 } };
    case 2: return { type: 'AggregatesSet', data: { aggregates: [`00000000-0000-0000-0000-0000000000${String(revision % 90).padStart(2, '0')}`], generation, v: 1 } };
    default: return { type: 'ProviderAllocationsChanged', data: { consumers: { [`consumer-${revision % 50}`]: { VCPU: 1 + (revision % 3), MEMORY_MB: 512 } }, generation, v: 1 } };
  }
}

async function writeStream(store: PostgresEventStore, uuid: string, count: number): Promise<void> {
  for (let written = 0; written < count;) {
    const events = Array.from({ length: Math.min(PER_APPEND, count - written) }, (_, i) => fact(uuid, written + i));
    await store.append([{ stream: `provider-${uuid}`, expectedRevision: written - 1, events }]);
    written += events.length;
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

async function timed(states: StreamStates, stream: string, points: readonly LogPoint[]): Promise<number[]> {
  const times: number[] = [];
  for (const point of points) {
    const started = performance.now();
    await states.at(stream, point, PROVIDER_FOLD);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

function randomPoints(events: readonly RecordedEvent[], count: number): LogPoint[] {
  return Array.from({ length: count }, (_, i) => {
    const event = events[Math.floor(Math.random() * events.length)];
    return i % 3 === 0 ? { time: recordedMicros(event) } : { position: event.position };
  });
}

async function main(): Promise<void> {
  const count = eventsArg(process.argv.slice(2));
  const name = `pl_bench_asof_${randomUUID().slice(0, 8)}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase(url.toString(), 4, 'async');
  try {
    const store = new PostgresEventStore(database.pool); // the facts alone: no projection runs
    const [big, small] = [randomUUID(), randomUUID()];
    let started = performance.now();
    await writeStream(store, big, count);
    await writeStream(store, small, 10);
    console.log(`wrote ${count.toLocaleString('en-US')} events of provider-${big} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const bigEvents = await store.readStream(`provider-${big}`);
    const smallEvents = await store.readStream(`provider-${small}`);
    const snapshots = new StreamSnapshots(database.pool);
    const withSnapshots = new StreamStates(store, snapshots);
    const plain = new StreamStates(store, null);

    const replayed = await timed(plain, `provider-${big}`, randomPoints(bigEvents, 5));
    console.log(`without snapshots: p50 ${percentile(replayed, 50).toFixed(1)} ms (5 samples)`);
    started = performance.now();
    await withSnapshots.at(`provider-${big}`, { position: bigEvents[bigEvents.length - 1].position }, PROVIDER_FOLD);
    const written = (await database.pool.query('SELECT count(*)::int AS n FROM rm_stream_snapshots')).rows[0].n;
    console.log(`first as_of at the head, writing ${written} snapshots: ${(performance.now() - started).toFixed(0)} ms`);

    await timed(withSnapshots, `provider-${big}`, randomPoints(bigEvents, 20)); // warm the pool and the plan cache
    const fast = await timed(withSnapshots, `provider-${big}`, randomPoints(bigEvents, SAMPLES));
    const tiny = await timed(withSnapshots, `provider-${small}`, randomPoints(smallEvents, SAMPLES));
    const p50 = percentile(fast, 50);
    console.log(`with snapshots, ${count.toLocaleString('en-US')}-event stream: p50 ${p50.toFixed(2)} ms, p95 ${percentile(fast, 95).toFixed(2)} ms, max ${fast[fast.length - 1].toFixed(2)} ms (${SAMPLES} random positions and times)`);
    console.log(`ten-event stream, for scale: p50 ${percentile(tiny, 50).toFixed(2)} ms, p95 ${percentile(tiny, 95).toFixed(2)} ms`);
    console.log(p50 < GOAL_MS ? `as_of p50 ${p50.toFixed(2)} ms: under the ${GOAL_MS} ms goal` : `as_of p50 ${p50.toFixed(2)} ms: OVER the ${GOAL_MS} ms goal`);
    if (p50 >= GOAL_MS) process.exitCode = 1;
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
