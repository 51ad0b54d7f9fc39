import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, 'install-debian-packages.sh');

/**
 * The script against stand-ins for dpkg, apt-get and id on PATH: a package whose name starts
 * with "missing-" is not installed, apt-get records each call and fails for a name holding
 * "fails-", and id answers `uid`. Nothing on the machine is installed or asked.
 */
function run(args: string[], uid = 0) {
  const bin = mkdtempSync(join(tmpdir(), 'pl-debian-'));
  const calls = join(bin, 'apt-calls');
  writeFileSync(calls, '');
  const stub = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  stub('dpkg', 'case "$2" in missing-*) exit 1;; esac');
  stub('apt-get', `echo "$*" >> ${calls}; case "$*" in *fails-*) exit 100;; esac`);
  stub('id', `echo ${uid}`);
  try {
    const result = spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    return { status: result.status, lines: result.stdout.trim().split('\n').filter(Boolean), apt: readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean) };
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

describe('test/support/install-debian-packages.sh', () => {
  it('does nothing, quietly, when every package named is installed', () => {
    expect(run(['bash', 'coreutils'])).toEqual({ status: 0, lines: [], apt: [] });
  });

  it('installs only the missing ones, and says which', () => {
    expect(run(['bash', 'missing-a', 'missing-b'])).toEqual({
      status: 0, lines: ['installing missing-a missing-b'], apt: ['update -qq', 'install -y -qq missing-a missing-b'],
    });
  });

  it('leaves out what they only recommend when asked', () => {
    expect(run(['--no-recommends', 'missing-a']).apt).toEqual(['update -qq', 'install -y -qq --no-install-recommends missing-a']);
  });

  it('says in its last line why it cannot install them: not root, or apt-get failing', () => {
    expect(run(['missing-a'], 1000)).toEqual({
      status: 1, lines: ['cannot install missing-a: apt-get needs root (run as root or install them first)'], apt: [],
    });
    const failing = run(['missing-fails-b']);
    expect(failing.status).toBe(1);
    expect(failing.lines.at(-1)).toBe('apt-get install missing-fails-b failed');
  });

  it('wants at least one package', () => {
    expect(run([]).status).toBe(2);
  });
});
