import { readFileSync } from 'node:fs';
import type { AdminIo } from './admin-io.js';
import { parseOptions } from './migrate-commands.js';
import { formatPlan } from './undo-format.js';

export const UNDO_USAGE = `  revert --request ID [--force-streams STREAM,...] [--apply [--plan-hash H]] [--json]
                      plan (by default) or apply the revert of one request: every stream it
                      changed back to just before it; refused, naming them, where later writes
                      changed those streams, unless --force-streams names them
  restore --as-of TIME|POSITION (--provider UUID [--tree] [--without-consumers] | --consumer UUID
          | --project ID | --aggregate UUID | --from-file PATH)... [--apply [--plan-hash H]] [--json]
                      plan or apply bringing the streams in scope back to their state then
                      (--from-file: lines "provider|consumer|project|aggregate <id>")
                      revert and restore ask the server (--url, else PLACEMENT_URL; --token,
                      else OS_TOKEN): the write is the server's, attributed to the token's user`;

/** 1: the plan is refused (a revert's conflicts, a 409), as verify's 1 is drift: something for the operator to read. */
export const UNDO_EXIT = { ok: 0, refused: 1, usage: 2, failed: 3 } as const;
const EXIT = UNDO_EXIT;
const VALUED = ['--request', '--force-streams', '--plan-hash', '--as-of', '--provider', '--consumer', '--project', '--aggregate', '--from-file', '--url', '--token'];
const FLAGS = ['--apply', '--json', '--tree', '--without-consumers'];
const SCOPES = { provider: 'providers', consumer: 'consumers', project: 'projects', aggregate: 'aggregates' } as const;

/** Every value of a repeatable option (parseOptions keeps the last). */
function all(args: readonly string[], name: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) found.push(args[++i] ?? '');
    else if (args[i].startsWith(`${name}=`)) found.push(args[i].slice(name.length + 1));
  }
  return found;
}

function restoreBody(args: readonly string[], values: Map<string, string>, flags: readonly string[]): Record<string, unknown> {
  const scope: Record<string, string[]> = { providers: [], consumers: [], projects: [], aggregates: [] };
  for (const [option, key] of Object.entries(SCOPES)) scope[key].push(...all(args, `--${option}`));
  for (const file of all(args, '--from-file')) {
    for (const [n, line] of readFileSync(file, 'utf8').split('\n').entries()) {
      const [kind, id, extra] = line.trim().split(/\s+/);
      if (!kind || kind.startsWith('#')) continue;
      if (!(kind in SCOPES) || !id || extra) throw new UsageError(`${file}:${n + 1}: expected "provider|consumer|project|aggregate <id>"`);
      scope[SCOPES[kind as keyof typeof SCOPES]].push(id);
    }
  }
  return {
    as_of: values.get('--as-of'), ...Object.fromEntries(Object.entries(scope).filter(([, ids]) => ids.length > 0)),
    ...(flags.includes('--tree') ? { tree: true } : {}), ...(flags.includes('--without-consumers') ? { with_consumers: false } : {}),
  };
}

class UsageError extends Error {}

/** revert and restore: the server plans and writes (one command runner, its projections); this prints. */
export async function runUndo(command: 'revert' | 'restore', args: readonly string[], env: NodeJS.ProcessEnv, io: AdminIo): Promise<number> {
  const { values, flags } = parseOptions(args, VALUED);
  const unknown = flags.filter((flag) => !FLAGS.includes(flag));
  const url = values.get('--url') ?? env.PLACEMENT_URL;
  const token = values.get('--token') ?? env.OS_TOKEN;
  let body: Record<string, unknown>;
  try {
    if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]}`);
    if (!url || !token) throw new UsageError('the server to ask: --url (or PLACEMENT_URL) and --token (or OS_TOKEN)');
    if (command === 'revert') {
      if (!values.get('--request')) throw new UsageError('--request ID is required');
      const forced = values.get('--force-streams');
      body = { request_id: values.get('--request'), ...(forced ? { force_streams: forced.split(',').filter(Boolean) } : {}) };
    } else {
      if (!values.get('--as-of')) throw new UsageError('--as-of TIME|POSITION is required');
      body = restoreBody(args, values, flags);
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${command}: ${error.message}`);
    return EXIT.usage;
  }
  const ask = (extra: object) => post(`${url.replace(/\/+$/, '')}/ledger/${command}`, token, { ...body, ...extra });
  const json = flags.includes('--json');
  let reply = await ask({});
  if (reply.ok && flags.includes('--apply')) {
    if (!json) for (const line of formatPlan(reply.body)) io.out(line);
    if (reply.body.status !== 'ready') return reply.body.status === 'refused' ? EXIT.refused : EXIT.ok;
    reply = await ask({ apply: true, plan_hash: values.get('--plan-hash') ?? reply.body.plan_hash });
  }
  if (!reply.ok) {
    const detail = reply.body?.errors?.[0]?.detail ?? reply.text;
    io.err(`${command}: ${reply.status}: ${detail}`);
    return reply.status === 409 ? EXIT.refused : reply.status < 500 ? EXIT.usage : EXIT.failed;
  }
  if (json) io.out(JSON.stringify(reply.body, null, 2));
  else for (const line of formatPlan(reply.body)) io.out(line);
  return reply.body.status === 'refused' ? EXIT.refused : EXIT.ok;
}

async function post(url: string, token: string, body: object): Promise<{ ok: boolean; status: number; body: any; text: string }> {
  const response = await fetch(url, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-auth-token': token },
  });
  const text = await response.text();
  let parsed: any;
  try { parsed = JSON.parse(text); } catch { parsed = undefined; }
  return { ok: response.ok, status: response.status, body: parsed, text };
}
