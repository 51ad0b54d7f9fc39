import { parseStormOptions } from './options.js';

describe('parseStormOptions', () => {
  it("defaults to issue 30's storm: flat 1,000, 1,000 instances on both servers, 10 schedulers, a project per instance", () => {
    expect(parseStormOptions([])).toEqual({
      shape: 'flat', providers: 1000, instances: 1000, upstreamInstances: 1000, schedulers: 10, servers: ['ours', 'upstream'],
      projects: 0, wide: false, profile: false, trace: false, seed: 30, load: 'api', workers: 0, warmup: 3000, weighMs: 0, json: undefined,
      against: undefined, slices: 10,
    });
  });

  it('reads a small smoke run, upstream booting as many as ours unless told', () => {
    const options = parseStormOptions(['--shape', 'nested', '--providers', '50', '--instances', '40', '--servers', 'ours', '--projects', '1', '--wide', '--profile', '--trace']);
    expect(options).toMatchObject({ shape: 'nested', providers: 50, instances: 40, upstreamInstances: 40, servers: ['ours'], projects: 1, wide: true, profile: true, trace: true });
    expect(parseStormOptions(['--instances', '1000', '--upstream-instances', '200']).upstreamInstances).toBe(200);
    expect(parseStormOptions(['--instances', '40']).warmup).toBe(120);
    expect(parseStormOptions(['--warmup', '0']).warmup).toBe(0);
    expect(parseStormOptions(['--providers', '100000', '--servers', 'ours', '--load', 'import', '--workers', '2'])).toMatchObject({ providers: 100000, load: 'import', workers: 2 });
    expect(parseStormOptions(['--weigh-ms', '40']).weighMs).toBe(40);
  });

  it('storms another build of ours beside this one, alone and loaded through the API, in turns', () => {
    expect(parseStormOptions(['--servers', 'ours', '--against', '/old/main.js', '--slices', '6']))
      .toMatchObject({ servers: ['ours'], against: '/old/main.js', slices: 6 });
    expect(parseStormOptions(['--servers', 'ours', '--against', '/old/main.js']).slices).toBe(10);
    expect(() => parseStormOptions(['--against', '/old/main.js'])).toThrow(/--servers ours/);
    for (const extra of [['--load', 'import'], ['--wide'], ['--profile'], ['--trace']]) {
      expect(() => parseStormOptions(['--servers', 'ours', '--against', '/old/main.js', ...extra])).toThrow(/alone/);
    }
    expect(() => parseStormOptions(['--servers', 'ours', '--against', '/old/main.js', '--slices', '1'])).toThrow(/2 to --instances turns/);
    expect(() => parseStormOptions(['--servers', 'ours', '--slices', '6'])).toThrow(/goes with --against/);
    expect(() => parseStormOptions(['--servers', 'ours', '--instances', '5', '--against', '/old/main.js', '--slices', '6'])).toThrow(/2 to --instances/);
  });

  it('refuses what it does not know rather than run another storm than asked', () => {
    expect(() => parseStormOptions(['--shape', 'wide'])).toThrow(/flat or nested/);
    expect(() => parseStormOptions(['--servers', 'ours,nova'])).toThrow(/ours and\/or upstream/);
    expect(() => parseStormOptions(['--instances', '-3'])).toThrow(/whole number/);
    expect(() => parseStormOptions(['--quick'])).toThrow(/unknown argument --quick/);
    expect(() => parseStormOptions(['--load', 'sql'])).toThrow(/api or import/);
    expect(() => parseStormOptions(['--weigh-ms', '2.5'])).toThrow(/whole number/);
  });
});
