import { ConfigArgsError, DEFAULT_CONFIG_FILE, FileSystemView, locateConfigFiles, takeConfigArgs } from './locate.js';

function fsWith(files: Record<string, string[]>, plain: string[] = []): FileSystemView {
  return {
    exists: (path) => plain.includes(path) || path in files,
    isDirectory: (path) => path in files,
    list: (dir) => files[dir] ?? [],
  };
}

describe('takeConfigArgs', () => {
  it('takes --config-file and --config-dir, repeated, spaced or with =, and leaves the rest in order', () => {
    expect(takeConfigArgs(['--config-file', 'a.conf', 'db', '--config-file=b.conf', '--config-dir', 'd', 'sync', '--config_dir=e']))
      .toEqual({ configFiles: ['a.conf', 'b.conf'], configDirs: ['d', 'e'], rest: ['db', 'sync'] });
  });

  it('refuses a flag without its value', () => {
    expect(() => takeConfigArgs(['db', '--config-file'])).toThrow(new ConfigArgsError('--config-file needs a value'));
    expect(() => takeConfigArgs(['--config-dir='])).toThrow(ConfigArgsError);
  });
});

describe('locateConfigFiles: where upstream finds placement.conf', () => {
  it('reads the files in the order given, then each directory\'s *.conf sorted by name', () => {
    const fs = fsWith({ '/d': ['20-b.conf', 'README', '10-a.conf', 'x.conf.bak'] }, ['/one.conf', '/two.conf']);
    expect(locateConfigFiles({ configFiles: ['/two.conf', '/one.conf'], configDirs: ['/d'] }, {}, fs))
      .toEqual(['/two.conf', '/one.conf', '/d/10-a.conf', '/d/20-b.conf']);
  });

  it('stops on a named file or directory that is not there', () => {
    expect(() => locateConfigFiles({ configFiles: ['/nope.conf'], configDirs: [] }, {}, fsWith({})))
      .toThrow('configuration file not found: /nope.conf');
    expect(() => locateConfigFiles({ configFiles: [], configDirs: ['/nodir'] }, {}, fsWith({})))
      .toThrow('configuration directory not found: /nodir');
  });

  it('without flags, reads $OS_PLACEMENT_CONFIG_DIR/placement.conf, which must exist', () => {
    const fs = fsWith({}, ['/srv/conf/placement.conf', DEFAULT_CONFIG_FILE]);
    expect(locateConfigFiles({ configFiles: [], configDirs: [] }, { OS_PLACEMENT_CONFIG_DIR: '/srv/conf' }, fs)).toEqual(['/srv/conf/placement.conf']);
    expect(() => locateConfigFiles({ configFiles: [], configDirs: [] }, { OS_PLACEMENT_CONFIG_DIR: '/empty' }, fs))
      .toThrow('OS_PLACEMENT_CONFIG_DIR is /empty, but /empty/placement.conf does not exist');
  });

  it('else /etc/placement/placement.conf when it exists, else nothing', () => {
    const none = { configFiles: [], configDirs: [] };
    expect(locateConfigFiles(none, {}, fsWith({}, [DEFAULT_CONFIG_FILE]))).toEqual([DEFAULT_CONFIG_FILE]);
    expect(locateConfigFiles(none, { OS_PLACEMENT_CONFIG_DIR: ' ' }, fsWith({}))).toEqual([]);
  });
});
