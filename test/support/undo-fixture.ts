import { EXIT, runAdmin } from '#placement-admin/cli.js';
import { LogStore, logStoreEnv, Reply, TestApp } from './test-app.js';

/** Calls shared by the undo e2e suites: writes that must succeed, the CLI in process, verify. */
export function undoFixture(app: () => TestApp, store: LogStore) {
  const ok = async (method: string, path: string, body?: unknown, token = 'admin'): Promise<Reply> => {
    const reply = await app().request(method, path, { body, version: '1.39', token, headers: token === 'admin' ? {} : { 'x-roles': 'admin' } });
    if (![200, 201, 204].includes(reply.status)) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
    return reply;
  };
  const get = async (path: string) => (await app().request('GET', path, { version: '1.39' })).body;
  const requestId = (reply: Reply) => reply.headers.get('x-openstack-request-id')!;
  const admin = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { DATABASE_URL: app().databaseUrl, PLACEMENT_URL: app().baseUrl, OS_TOKEN: 'admin', ...logStoreEnv(store) };
    const code = await runAdmin(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, undefined, app().externalLog);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const verifyClean = async () => {
    const result = await admin('verify');
    if (result.code !== EXIT.ok) throw new Error(`verify: ${result.code}\n${result.out}\n${result.err}`);
  };
  /** A moment strictly between what came before and what comes after (the log keeps microseconds). */
  const moment = async () => {
    await new Promise((done) => setTimeout(done, 20));
    const at = new Date().toISOString();
    await new Promise((done) => setTimeout(done, 20));
    return at;
  };
  const claim = (allocations: Record<string, Record<string, number>>, project: string, generation: number | null, user = 'u') => ({
    allocations: Object.fromEntries(Object.entries(allocations).map(([rp, resources]) => [rp, { resources }])),
    project_id: project, user_id: user, consumer_generation: generation, consumer_type: 'INSTANCE',
  });
  /** What a consumer holds, without the providers' generations (which only move forward). */
  const held = (body: any) => Object.fromEntries(Object.entries(body.allocations ?? {}).map(([rp, a]: [string, any]) => [rp, a.resources]));
  return { ok, get, requestId, admin, verifyClean, moment, claim, held };
}
