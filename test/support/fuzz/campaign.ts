import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { isUpstreamError, rawExchange, RawAnswer } from '../raw-http.js';
import { MUTATIONS, toBytes } from './mutations.js';
import { Prng } from './prng.js';
import { Fixture, RequestParts, validRequests } from './seeds.js';

export interface Finding {
  readonly kind: 'server error' | 'not upstream-shaped' | 'state changed on reject' | 'no answer' | 'not alive';
  readonly mutation: string;
  readonly request: string;
  readonly detail: string;
}

export interface CampaignReport {
  readonly seed: number;
  requests: number;
  rejected: number;
  serverErrors: number;
  unshaped4xx: number;
  stateChangesOnReject: number;
  noAnswer: number;
  readonly byStatus: Record<number, number>;
  readonly findings: Finding[];
}

const WRITES = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
const FIXTURE_EVERY = 25;
const ALIVE_EVERY = 50;

/** Fresh providers and consumers through the API, so destructive requests always have a target. */
async function makeFixture(url: string): Promise<Fixture> {
  const call = async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement latest', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await reply.text();
    return text ? JSON.parse(text) : {};
  };
  const provider = randomUUID();
  const tag = provider.slice(0, 8).toUpperCase();
  await call('POST', '/resource_providers', { name: `fuzz-${provider}`, uuid: provider });
  const inventories = await call('PUT', `/resource_providers/${provider}/inventories`, {
    resource_provider_generation: 0, inventories: { VCPU: { total: 64 }, MEMORY_MB: { total: 65536 }, DISK_GB: { total: 1000 } },
  });
  await call('PUT', `/resource_classes/CUSTOM_FUZZ_${tag}`);
  await call('PUT', `/traits/CUSTOM_FUZZ_${tag}`);
  const fixture: Fixture = {
    provider, generation: inventories.resource_provider_generation ?? 1, consumer: randomUUID(), otherUuid: randomUUID(),
    customClass: `CUSTOM_FUZZ_${tag}`, customTrait: `CUSTOM_FUZZ_${tag}`, project: `fuzz-${tag.toLowerCase()}`,
  };
  await call('PUT', `/allocations/${fixture.consumer}`, {
    allocations: { [provider]: { resources: { VCPU: 1 } } }, project_id: fixture.project, user_id: 'fuzz-user', consumer_generation: null,
  });
  return fixture;
}

function mutate(rng: Prng, request: RequestParts): string[] {
  const names: string[] = [];
  for (let i = rng.pick([1, 1, 1, 2, 3]); i > 0; i--) {
    const mutation = rng.pick(MUTATIONS);
    mutation.apply(rng, request);
    names.push(mutation.name);
  }
  return names;
}

/** An error answer's microversion, from its header: `code` is in the shape from 1.23 on. */
function wantsCode(answer: RawAnswer): boolean {
  const match = /placement (\d+)\.(\d+)/.exec(answer.headers['openstack-api-version'] ?? '');
  return !!match && (Number(match[1]) > 1 || Number(match[2]) >= 23);
}

/**
 * Upstream's error shapes: `{"errors": [...]}` as JSON; webob's text or HTML page when the
 * Accept header asks for those; and the authentication middleware's own 401 body.
 */
function upstreamShaped(answer: RawAnswer): boolean {
  const type = answer.headers['content-type'] ?? '';
  if (type.startsWith('text/plain')) return answer.text.startsWith(`${answer.status} `);
  if (type.startsWith('text/html')) return answer.text.includes(`<title>${answer.status} `);
  if (answer.status === 401 && answer.json?.code === '401 Unauthorized' && typeof answer.json.message === 'string') return true;
  return isUpstreamError(answer, wantsCode(answer));
}

/**
 * Sends `count` mutations of valid requests (seeded: the same seed replays the same run) and
 * checks the properties: no 5xx, upstream's error shape on every 4xx, the log head
 * (es_events rows) unchanged by every rejected write, the server answering GET / within a second.
 */
export async function runCampaign(url: string, sql: Client, seed: number, count: number, log?: (line: string) => void): Promise<CampaignReport> {
  const rng = new Prng(seed);
  const report: CampaignReport = {
    seed, requests: 0, rejected: 0, serverErrors: 0, unshaped4xx: 0, stateChangesOnReject: 0, noAnswer: 0, byStatus: {}, findings: [],
  };
  const logHead = async () => Number((await sql.query('SELECT count(*) AS n FROM es_events')).rows[0].n);
  const note = (finding: Finding) => {
    if (report.findings.length < 50) report.findings.push(finding);
  };
  let valid: RequestParts[] = [];
  for (let i = 0; i < count; i++) {
    if (i % FIXTURE_EVERY === 0) valid = validRequests(await makeFixture(url));
    if (i % ALIVE_EVERY === 0) await checkAlive(url, (detail) => note({ kind: 'not alive', mutation: '-', request: 'GET /', detail }));
    const request = structuredClone(rng.pick(valid));
    const names = mutate(rng, request);
    const bytes = toBytes(request);
    const shown = bytes.subarray(0, 200).toString('latin1').split('\r\n')[0];
    const write = WRITES.has(request.method.toUpperCase());
    const before = write ? await logHead() : 0;
    const { answers } = await rawExchange(url, bytes, 10_000);
    report.requests++;
    if (answers.length === 0) {
      report.noAnswer++;
      note({ kind: 'no answer', mutation: names.join(' + '), request: shown, detail: '' });
      continue;
    }
    for (const answer of answers) {
      report.byStatus[answer.status] = (report.byStatus[answer.status] ?? 0) + 1;
      if (answer.status >= 500) {
        report.serverErrors++;
        note({ kind: 'server error', mutation: names.join(' + '), request: shown, detail: answer.text.slice(0, 300) });
      } else if (answer.status >= 400 && !upstreamShaped(answer)) {
        report.unshaped4xx++;
        note({ kind: 'not upstream-shaped', mutation: names.join(' + '), request: shown, detail: `${answer.status} ${answer.text.slice(0, 300)}` });
      }
    }
    if (answers[0].status >= 400) {
      report.rejected++;
      if (write && (await logHead()) !== before) {
        report.stateChangesOnReject++;
        note({ kind: 'state changed on reject', mutation: names.join(' + '), request: shown, detail: String(answers[0].status) });
      }
    }
    if (log && report.requests % 1000 === 0) log(`${report.requests} requests, ${report.serverErrors} 5xx, ${report.unshaped4xx} unshaped 4xx`);
  }
  await checkAlive(url, (detail) => note({ kind: 'not alive', mutation: '-', request: 'GET /', detail }));
  return report;
}

async function checkAlive(url: string, fail: (detail: string) => void): Promise<void> {
  const started = Date.now();
  try {
    const reply = await fetch(`${url}/`, { signal: AbortSignal.timeout(1000) });
    if (reply.status !== 200) fail(`status ${reply.status}`);
  } catch (error) {
    fail(`${(error as Error).message} after ${Date.now() - started} ms`);
  }
}
