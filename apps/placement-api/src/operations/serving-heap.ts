import { setFlagsFromString } from 'node:v8';

/** How far past what lived after a full collection the old generation grows before the next: twice. */
const SERVING_HEAP_GROWING_PERCENT = 100;

interface ServingSetting {
  readonly flag: string;
  /** The flag an operator may have given instead, in either spelling, negated or not. */
  readonly given: RegExp;
}

/**
 * V8 settings for serving, switched to once the start's load is done (whose collections keep V8's
 * own choices), from within rather than among the serving flags (heap-flags.ts) because
 * NODE_OPTIONS, which the image relies on, refuses them. Serving keeps replacing objects kept
 * long enough to outlive a scavenge (cached stream states, kept answers), so garbage reaches the
 * old generation at a steady rate (docs/performance.md, "Figures behind settings"):
 * - the old generation grows to twice what lived before the next full collection: V8 sets the
 *   limit from how fast marking runs, finds it cheap and sets it barely above the live heap, so
 *   full collections came every few seconds of a boot storm, their marking on helper threads
 *   that compete with requests on a small host;
 * - no allocation-site pretenuring: V8 had judged sites of short-lived objects (a request's, a
 *   PostgreSQL reply's) long-lived and allocated them in the old generation, where only a full
 *   collection frees them and every scavenge must scan their pointers into the young one.
 */
const SERVING_SETTINGS: readonly ServingSetting[] = [
  { flag: `--heap-growing-percent=${SERVING_HEAP_GROWING_PERCENT}`, given: /^--heap[-_]growing[-_]percent(=|$)/ },
  { flag: '--no-allocation-site-pretenuring', given: /^--(no[-_])?allocation[-_]site[-_]pretenuring$/ },
];

/** Sets what the command line does not name (an operator's own flag wins); returns the flags set. */
export function fixHeapForServing(execArgv: readonly string[] = process.execArgv, set = setFlagsFromString): string[] {
  const missing = SERVING_SETTINGS.filter(({ given }) => !execArgv.some((flag) => given.test(flag)));
  for (const { flag } of missing) set(flag);
  return missing.map(({ flag }) => flag);
}
