import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { DocBlock, DocProblem, pairKey, pairsIn, parsePage, Step, stepsOf } from '../support/doc-blocks.js';
import { startServerProcess, ServerProcess } from '../support/server-process.js';

/**
 * Every command the manual shows is one this test runs: each `sh`/`shell`/`bash`/`console` block
 * of README.md and docs/*.md, in the order a reader meets them (the README, then the pages in the
 * order its map links them), against one built server on a fresh database. A block that cannot run
 * here says why in a `<!-- not run: <reason> -->` line right before it. The docs' address
 * http://127.0.0.1:8778 is read as this server's; P, H and V are set as the first session sets
 * them, DATABASE_URL names the server's database, and the package's bins (placement-admin, …) are
 * on PATH as in the image. Variables a block exports reach the later blocks of its page.
 */
const ROOT = resolve(__dirname, '../..');
const DOCS_ADDRESS = 'http://127.0.0.1:8778';

interface Page { readonly file: string; readonly blocks: DocBlock[]; readonly problems: DocProblem[] }

function manualPages(): Page[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const linked = [...readme.matchAll(/\]\(docs\/([\w-]+\.md)\)/g)].map((m) => m[1]);
  const present = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  const order = [...new Set(linked.filter((name) => present.includes(name))), ...present.filter((name) => !linked.includes(name)).sort()];
  return ['README.md', ...order.map((name) => `docs/${name}`)].map((file) => ({ file, ...parsePage(readFileSync(join(ROOT, file), 'utf8'), file) }));
}

const pages = manualPages();
const runnable = pages.flatMap((page) => page.blocks.filter((block) => block.command && block.notRun === undefined));
const where = (block: DocBlock) => `${block.file}:${block.line}`;

/** The block as a script: each step announced on both streams, curl reporting each status on stderr. */
function scriptOf(block: DocBlock, steps: readonly Step[], serverUrl: string, envOut: string): string {
  const lines = block.text.split('\n');
  const starts = new Map(steps.map((step, index) => [step.start, index]));
  const body = lines.flatMap((line, i) => (starts.has(i) ? [`__doc_step ${starts.get(i)}`, line] : [line]));
  return [
    'set -euo pipefail',
    '__doc_step() { printf \'\\n@@doc-step %s\\n\' "$1"; printf \'\\n@@doc-step %s\\n\' "$1" >&2; }',
    // A block that asks curl for its own --write-out keeps it; the status is then not known here.
    'curl() { local a; for a in "$@"; do case $a in -w|--write-out) command curl "$@"; return;; esac; done',
    '  command curl -w \'%{stderr}@@doc-http %{http_code}\\n\' "$@"; }',
    ...body.map((line) => line.split(DOCS_ADDRESS).join(serverUrl)),
    `env -0 > '${envOut}'`,
  ].join('\n');
}

/** stdout or stderr cut at the step markers. */
function bySteps(output: string): Map<number, string> {
  const parts = new Map<number, string>();
  let current = -1;
  for (const line of output.split('\n')) {
    const marker = /^@@doc-step (\d+)$/.exec(line);
    if (marker) current = Number(marker[1]);
    else parts.set(current, `${parts.get(current) ?? ''}${line}\n`);
  }
  return parts;
}

/** What is wrong with a step's output against what the manual says it is; empty when nothing. */
function mismatches(step: Step, stdout: string, stderr: string): string[] {
  const statuses = [...stderr.matchAll(/^@@doc-http (\d{3})$/gm)].map((m) => Number(m[1]));
  const problems: string[] = [];
  const expected = step.expected;
  if (expected?.status !== undefined) {
    const last = statuses.at(-1) ?? Number(/^\s*(\d{3})\b/.exec(stdout)?.[1]);
    if (last !== expected.status) problems.push(`status ${last}, the manual shows ${expected.status}`);
  } else {
    const failed = statuses.filter((status) => status >= 400);
    if (failed.length > 0) problems.push(`HTTP ${failed.join(', ')} where the manual shows no failure`);
  }
  if (expected && expected.pairs.length > 0) {
    const found = pairsIn(stdout);
    const missing = expected.pairs.map(([key, value]) => pairKey(key, value)).filter((pair) => !found.has(pair));
    if (missing.length > 0) problems.push(`the output lacks ${missing.join(', ')}`);
  }
  return problems;
}

interface Ran { readonly code: number | null; readonly stdout: string; readonly stderr: string; readonly env: Record<string, string> }

function runScript(script: string, env: Record<string, string>, envOut: string): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => {
      let after: Record<string, string> = {};
      if (code === 0) {
        after = Object.fromEntries(readFileSync(envOut, 'utf8').split('\0').filter(Boolean)
          .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
      }
      done({ code, stdout, stderr, env: after });
    });
  });
}

const SHELL_OWN = new Set(['_', 'SHLVL', 'PWD', 'OLDPWD']);

describe('the manual\'s commands', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let scratch: string;
  let base: Record<string, string>;
  const ran = new Set<string>();

  beforeAll(async () => {
    database = await createTestDatabase('pl_docs');
    server = await startServerProcess({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
    scratch = mkdtempSync(join(tmpdir(), 'placement-docs-'));
    const bin = join(scratch, 'bin');
    mkdirSync(bin);
    const bins = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin as Record<string, string>;
    for (const [name, entry] of Object.entries(bins)) {
      writeFileSync(join(bin, name), `#!/bin/sh\nexec '${process.execPath}' '${join(ROOT, entry)}' "$@"\n`);
      chmodSync(join(bin, name), 0o755);
    }
    base = {
      ...(process.env as Record<string, string>),
      PATH: `${bin}:${process.env.PATH}`,
      DATABASE_URL: database.url,
      P: server.url,
      H: 'x-auth-token: admin',
      V: 'openstack-api-version: placement latest',
    };
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('has an info string on every block, and a reason on every block it does not run', () => {
    expect(pages.flatMap((page) => page.problems).map((p) => `${p.file}:${p.line}: ${p.problem}`)).toEqual([]);
    const marked = pages.flatMap((page) => page.blocks.filter((block) => block.notRun !== undefined));
    for (const block of marked) expect(block.notRun!.length).toBeGreaterThan(10);
    expect(runnable.length).toBeGreaterThan(0);
  });

  for (const page of pages) {
    const blocks = page.blocks.filter((block) => block.command && block.notRun === undefined);
    if (blocks.length === 0) continue;
    describe(page.file, () => {
      // The page's own exports, carried from block to block as a reader's shell carries them.
      const exported: Record<string, string> = {};
      for (const block of blocks) {
        it(`runs the block at line ${block.line}`, async () => {
          const steps = stepsOf(block);
          const envOut = join(scratch, 'env');
          const env = { ...base, ...exported };
          const result = await runScript(scriptOf(block, steps, server.url, envOut), env, envOut);
          ran.add(where(block));
          const outs = bySteps(result.stdout);
          const errs = bySteps(result.stderr);
          const shown = (index: number) => `$ ${steps[index]?.command}\n${outs.get(index) ?? ''}${(errs.get(index) ?? '').replace(/^@@doc-http .*\n/gm, '')}`;
          if (result.code !== 0) {
            const last = Math.max(-1, ...outs.keys(), ...errs.keys());
            throw new Error(`${where(block)}: exit ${result.code} at step ${last + 1} of ${steps.length}\n${shown(last)}`);
          }
          const wrong = steps.flatMap((step, index) =>
            mismatches(step, outs.get(index) ?? '', errs.get(index) ?? '').map((problem) => `${problem}\n${shown(index)}`));
          if (wrong.length > 0) throw new Error(`${where(block)}:\n${wrong.join('\n')}`);
          for (const [name, value] of Object.entries(result.env)) {
            if (!SHELL_OWN.has(name) && !name.startsWith('__DOC') && env[name] !== value) exported[name] = value;
          }
        }, 300_000);
      }
    });
  }

  it('ran every command block that is not marked', () => {
    expect([...ran].sort()).toEqual(runnable.map(where).sort());
  });
});
