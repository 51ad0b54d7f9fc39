import { jsonDifferences } from './json-diff.js';
import { limitedCandidates, normalize } from './normalize.js';
import { PlacementClient, PlacementReply } from './placement-client.js';
import { AGG, CONSUMER, ProofState, RP } from './proof-fixture.js';
import { CANDIDATE_QUERIES, PROOF_VERSIONS, PROVIDER_QUERIES, TRAIT_QUERIES, usageQueries } from './proof-queries.js';

export interface Asked {
  readonly version: string;
  readonly path: string;
}

/** A difference that is a known bug of one side rather than of the move: reported apart, with why. */
export type Tolerance = (asked: Asked, left: PlacementReply, right: PlacementReply) => string | undefined;

export interface Comparison {
  readonly requests: number;
  /** `1.28 GET /allocations/<inst1>: $.allocations.<cn2>.resources.VCPU: 2 != 4` */
  readonly differences: string[];
  readonly tolerated: string[];
  /** Same status, title and code, another wording of `errors[].detail`: reported, not state. */
  readonly errorTexts: string[];
  /** Last-Modified of GET /resource_providers/{uuid} at 1.15+: reported, never a failure. */
  readonly lastModified: string[];
  /** GETs that went unanswered once and were asked again (see getOnce). */
  readonly retried: string[];
}

export interface CompareOptions {
  readonly versions?: readonly string[];
  readonly tolerate?: Tolerance;
  readonly concurrency?: number;
}

/**
 * Every GET of the API, at several microversions, asked of two servers that should hold the same
 * state; each difference as a readable path. Where an endpoint or parameter does not exist at a
 * microversion both must answer the same status (and error).
 */
export async function compareServers(left: PlacementClient, right: PlacementClient, state: ProofState, options: CompareOptions = {}): Promise<Comparison> {
  const paths = await pathsToAsk(left, right, state);
  const asked: Asked[] = (options.versions ?? PROOF_VERSIONS).flatMap((version) => paths.map((path) => ({ version, path })));
  const result = { requests: 0, differences: [] as string[], tolerated: [] as string[], errorTexts: [] as string[], lastModified: [] as string[], retried: [] as string[] };
  await inParallel(asked, options.concurrency ?? 4, async (one) => {
    const where = `${one.version} GET ${label(one.path)}`;
    let a: PlacementReply, b: PlacementReply;
    try {
      [a, b] = await Promise.all([getOnce(left, one, where, result.retried), getOnce(right, one, where, result.retried)]);
    } catch (error) {
      result.differences.push(`${where}: no answer (${error instanceof Error ? error.message : String(error)})`);
      return;
    }
    result.requests += 2;
    const found = await differences(one, a, b, left, right);
    if (found.length === 0) {
      notedLastModified(one, a, b, where, result.lastModified);
      return;
    }
    const why = options.tolerate?.(one, a, b);
    for (const line of found) {
      if (why) result.tolerated.push(`${where}: ${line} (tolerated: ${why})`);
      else if (/^\$\.errors\[\d+\]\.detail: /.test(line)) result.errorTexts.push(`${where}: ${line}`);
      else result.differences.push(`${where}: ${line}`);
    }
  });
  for (const list of [result.differences, result.tolerated, result.errorTexts, result.lastModified]) list.sort(byVersionThenText);
  return result;
}

async function differences(one: Asked, a: PlacementReply, b: PlacementReply, left: PlacementClient, right: PlacementClient): Promise<string[]> {
  if (a.status !== b.status) return [`status ${a.status} != ${b.status} (${brief(a.body)} | ${brief(b.body)})`];
  let x = normalize(one.path, a.body);
  let y = normalize(one.path, b.body);
  const unlimited = one.path.startsWith('/allocation_candidates') && a.status === 200 ? one.path.replace(/&limit=\d+|limit=\d+&?/, '') : undefined;
  if (unlimited && unlimited !== one.path) {
    const [fullA, fullB] = await Promise.all([left.get(unlimited, one.version), right.get(unlimited, one.version)]);
    x = limitedCandidates(x, normalize(unlimited, fullA.body));
    y = limitedCandidates(y, normalize(unlimited, fullB.body));
  }
  return jsonDifferences(x, y).map(label);
}

/**
 * A GET, asked a second time when the first goes unanswered: upstream under uWSGI has now and
 * then left a request hanging (seen 3 times in ~20,000 requests, on MariaDB and on PostgreSQL,
 * cause not found). A GET is safe to repeat; a second silence is a difference.
 */
async function getOnce(server: PlacementClient, one: Asked, where: string, retried: string[]): Promise<PlacementReply> {
  try {
    return await server.get(one.path, one.version);
  } catch (error) {
    retried.push(`${where} on ${server.baseUrl}: ${error instanceof Error ? error.message : String(error)}`);
    return server.get(one.path, one.version);
  }
}

function notedLastModified(one: Asked, a: PlacementReply, b: PlacementReply, where: string, into: string[]): void {
  if (!/^\/resource_providers\/[0-9a-f-]{36}$/.test(one.path) || a.status !== 200 || Number(one.version.split('.')[1]) < 15) return;
  const [x, y] = [a.headers.get('last-modified'), b.headers.get('last-modified')];
  if (x !== y) into.push(`${where}: Last-Modified ${x} != ${y}`);
}

/** Every path to ask, from the fixture's ids and what either server lists. */
async function pathsToAsk(left: PlacementClient, right: PlacementClient, state: ProofState): Promise<string[]> {
  const providers = new Set(state.providers);
  const classes = new Set([...state.customClasses, 'VCPU', 'DISK_GB', 'CUSTOM_PROOF_NEVER']);
  for (const server of [left, right]) {
    for (const rp of (await server.get('/resource_providers', '1.14')).body?.resource_providers ?? []) providers.add(rp.uuid);
    for (const rc of (await server.get('/resource_classes', '1.7')).body?.resource_classes ?? []) if (rc.name.startsWith('CUSTOM_')) classes.add(rc.name);
  }
  const paths = ['/'];
  paths.push(...PROVIDER_QUERIES.map((q) => (q ? `/resource_providers?${q}` : '/resource_providers')));
  for (const rp of [...providers].sort()) {
    const base = `/resource_providers/${rp}`;
    paths.push(base, `${base}/inventories`, `${base}/usages`, `${base}/traits`, `${base}/aggregates`, `${base}/allocations`);
    const inventoried = new Set(['VCPU']);
    for (const server of [left, right]) for (const rc of Object.keys((await server.get(`${base}/inventories`, '1.0')).body?.inventories ?? {})) inventoried.add(rc);
    for (const rc of [...inventoried].sort()) paths.push(`${base}/inventories/${rc}`);
  }
  paths.push('/resource_classes', ...[...classes].sort().map((rc) => `/resource_classes/${rc}`));
  paths.push(...TRAIT_QUERIES.map((q) => (q ? `/traits?${q}` : '/traits')));
  paths.push(...[...state.customTraits, 'HW_NUMA_ROOT', 'CUSTOM_PROOF_NEVER'].map((t) => `/traits/${t}`));
  paths.push(...state.consumers.map((c) => `/allocations/${c}`));
  paths.push(...usageQueries(state.projects, state.users).map((q) => (q ? `/usages?${q}` : '/usages')));
  paths.push(...CANDIDATE_QUERIES.map((q) => `/allocation_candidates?${q}`));
  return paths;
}

const LABELS: [string, string][] = [
  ...Object.entries(RP).map(([name, uuid]): [string, string] => [uuid, `<${name}>`]),
  ...Object.entries(CONSUMER).map(([name, uuid]): [string, string] => [uuid, `<${name}>`]),
  ...Object.entries(AGG).map(([name, uuid]): [string, string] => [uuid, `<agg-${name}>`]),
];

/** The fixture's uuids by name, so that a difference reads `<cn1>` rather than 36 hex digits. */
export function label(text: string): string {
  return LABELS.reduce((out, [uuid, name]) => out.split(uuid).join(name), text);
}

function brief(body: unknown): string {
  const text = JSON.stringify(body) ?? '';
  return label(text.length > 200 ? `${text.slice(0, 197)}...` : text);
}

function byVersionThenText(a: string, b: string): number {
  const [va, vb] = [a, b].map((s) => Number(s.split(' ')[0].split('.')[1]));
  return va - vb || (a < b ? -1 : a > b ? 1 : 0);
}

async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}
