import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyBeneath, ConfigFileError, loadConfigFiles } from './load.js';

describe('loadConfigFiles: files beneath the environment', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'conf-load-'));
    writeFileSync(join(dir, 'placement.conf'), '[api]\nauth_strategy = noauth2\n[placement_database]\nconnection = postgresql://u@h/a\n[placement]\nmax_allocation_candidates = 100\n');
    mkdirSync(join(dir, 'conf.d'));
    writeFileSync(join(dir, 'conf.d', '50-db.conf'), '[placement_database]\nconnection = postgresql://u@h/b\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lets the environment win over the files, an empty variable counting as unset', () => {
    const loaded = loadConfigFiles(['--config-file', join(dir, 'placement.conf'), 'db', 'sync'], {
      PLACEMENT_MAX_ALLOCATION_CANDIDATES: '7', DATABASE_URL: '', HOME: '/root',
    });
    expect(loaded.files).toEqual([join(dir, 'placement.conf')]);
    expect(loaded.rest).toEqual(['db', 'sync']);
    expect(loaded.env).toMatchObject({ PLACEMENT_MAX_ALLOCATION_CANDIDATES: '7', DATABASE_URL: 'postgresql://u@h/a', HOME: '/root', PLACEMENT_AUTH_STRATEGY: 'noauth2' });
  });

  it('reads a --config-dir after the files, and OS_PLACEMENT_CONFIG_DIR without flags', () => {
    expect(loadConfigFiles(['--config-file', join(dir, 'placement.conf'), '--config-dir', join(dir, 'conf.d')], {}).env.DATABASE_URL).toBe('postgresql://u@h/b');
    expect(loadConfigFiles([], { OS_PLACEMENT_CONFIG_DIR: dir }).files).toEqual([join(dir, 'placement.conf')]);
  });

  it('reports a missing file or a syntax error as a ConfigFileError', () => {
    expect(() => loadConfigFiles(['--config-file', join(dir, 'absent.conf')], {})).toThrow(ConfigFileError);
    writeFileSync(join(dir, 'broken.conf'), 'debug = true\n');
    expect(() => loadConfigFiles(['--config-file', join(dir, 'broken.conf')], {})).toThrow(`${join(dir, 'broken.conf')}:1: option "debug" comes before any [section]`);
  });

  it('completes an environment without replacing what it holds', () => {
    const target: NodeJS.ProcessEnv = { DATABASE_URL: 'postgres://mine@h/db', LOG_LEVEL: '' };
    applyBeneath(target, { files: [], rest: [], warnings: [], notices: [], env: { DATABASE_URL: 'postgresql://u@h/a', LOG_LEVEL: 'debug' } });
    expect(target).toEqual({ DATABASE_URL: 'postgres://mine@h/db', LOG_LEVEL: 'debug' });
  });
});
