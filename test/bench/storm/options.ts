import type { ShapeName } from './cloud.js';

/** `npm run bench:storm` flags, for a full run or a small smoke run. */
export interface StormOptions {
  readonly shape: ShapeName;
  /** Computes: flat providers, or trees. */
  readonly providers: number;
  readonly instances: number;
  /** Upstream schedules about 2 to 10 instances a second: it may boot the first of them only. */
  readonly upstreamInstances: number;
  readonly schedulers: number;
  readonly servers: readonly ('ours' | 'upstream')[];
  /** 0: a project of its own for each instance. */
  readonly projects: number;
  readonly wide: boolean;
  /** Ours runs under V8's profiler and the storm's functions of most self time follow its figures. */
  readonly profile: boolean;
  /** Ours records when each request reached it and left, and the storm says where its requests' time went (storm/request-trace.ts). */
  readonly trace: boolean;
  readonly seed: number;
  /** How the cloud reaches ours: through the API, or as an upstream database imported (100,000 providers). */
  readonly load: 'api' | 'import';
  /**
   * Instances booted before the measured storm, uncounted, and deleted again (storm/warm-up.ts),
   * as a long-running server has booted and deleted many before (V8 compiles the path,
   * PostgreSQL's backends warm); upstream boots its share in proportion to its instances, at
   * most one round. Other projects than the storm's, and checked with it (they hold nothing).
   */
  readonly warmup: number;
  /** PLACEMENT_WORKERS for ours; 0 leaves it unset (one process). */
  readonly workers: number;
  /**
   * Milliseconds each scheduler spends between an answer and its claim, as Nova's filters and
   * weighers do on the scheduler's own host; 0 claims at once, the schedulers then asking as fast
   * as the servers answer (the storm saturates the host).
   */
  readonly weighMs: number;
  readonly json?: string;
  /**
   * Another build's main.js, stormed beside ours in `slices` turns of the same instances, the
   * two alternating (storm/against.ts): what each build costs, the VM's drift shared.
   */
  readonly against?: string;
  readonly slices: number;
}

export const USAGE = 'npm run bench:storm -- [--shape flat|nested] [--providers N] [--instances N] [--upstream-instances N] '
  + '[--schedulers N] [--servers ours,upstream] [--projects N] [--wide] [--profile] [--trace] [--load api|import] [--workers N] [--warmup N] [--weigh-ms N] [--seed N] [--json FILE] '
  + '[--against MAIN_JS [--slices N]]';

/**
 * Ours' CPU per instance still falls over the first few thousand instances (docs/performance.md,
 * warm-up); the warm-up is booted in rounds of --instances, so at most three rounds by default.
 */
const DEFAULT_WARMUP = 3000;

const VALUED = ['--shape', '--providers', '--instances', '--upstream-instances', '--schedulers', '--servers', '--projects', '--seed', '--load', '--workers', '--warmup', '--weigh-ms', '--json', '--against', '--slices'];

export function parseStormOptions(argv: readonly string[]): StormOptions {
  const values = new Map<string, string>();
  let wide = false;
  let profile = false;
  let trace = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--wide') wide = true;
    else if (argv[i] === '--profile') profile = true;
    else if (argv[i] === '--trace') trace = true;
    else if (VALUED.includes(argv[i]) && i + 1 < argv.length) values.set(argv[i], argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}; usage: ${USAGE}`);
  }
  const count = (flag: string, fallback: number) => {
    const n = Number(values.get(flag) ?? fallback);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${flag} wants a whole number, not ${values.get(flag)}`);
    return n;
  };
  const shape = values.get('--shape') ?? 'flat';
  if (shape !== 'flat' && shape !== 'nested') throw new Error(`--shape is flat or nested, not ${shape}`);
  const servers = (values.get('--servers') ?? 'ours,upstream').split(',');
  if (servers.length === 0 || servers.some((s) => s !== 'ours' && s !== 'upstream')) throw new Error(`--servers lists ours and/or upstream, not ${values.get('--servers')}`);
  const instances = count('--instances', 1000);
  const load = values.get('--load') ?? 'api';
  if (load !== 'api' && load !== 'import') throw new Error(`--load is api or import, not ${load}`);
  const against = values.get('--against');
  if (against !== undefined && (servers.join() !== 'ours' || load !== 'api' || wide || profile || trace)) {
    throw new Error('--against storms two builds of ours alone: with --servers ours, the cloud loaded through the API, and no --wide, --profile or --trace');
  }
  if (against === undefined && values.has('--slices')) throw new Error('--slices cuts a storm against another build: it goes with --against');
  const slices = count('--slices', 10);
  if (against !== undefined && (slices < 2 || slices > instances)) throw new Error(`--slices wants 2 to --instances turns, not ${slices}`);
  return {
    shape, providers: count('--providers', 1000), instances, upstreamInstances: count('--upstream-instances', instances),
    schedulers: Math.max(1, count('--schedulers', 10)), servers: servers as StormOptions['servers'], projects: count('--projects', 0),
    wide, profile, trace, seed: count('--seed', 30), load, workers: count('--workers', 0), warmup: count('--warmup', Math.min(3 * instances, DEFAULT_WARMUP)),
    weighMs: count('--weigh-ms', 0), json: values.get('--json'), against, slices,
  };
}
