import { setFlagsFromString } from 'node:v8';

/** How far past what lived after a full collection the old generation grows before the next: twice. */
export const SERVING_HEAP_GROWING_PERCENT = 100;

const GROWING_FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * Fixes how far the old generation grows between full collections once the process serves. Serving
 * keeps replacing objects kept long enough to outlive a scavenge (cached stream states, kept
 * answers), so garbage reaches the old generation at a steady rate. V8 sets the next limit from
 * how fast marking runs compared with the program, finds it cheap and sets the limit barely above
 * the live heap, so full collections came every few seconds of a boot storm; their concurrent
 * marking runs on helper threads that compete with requests on a small host (docs/performance.md).
 * Called once the start's load is done, whose collections keep V8's own choice, and set from
 * within rather than among the serving flags (heap-flags.ts) because NODE_OPTIONS, which the image
 * relies on, refuses it. An operator's own --heap-growing-percent wins. Returns the flag set, if
 * any.
 */
export function fixHeapGrowthForServing(execArgv: readonly string[] = process.execArgv, set = setFlagsFromString): string | undefined {
  if (execArgv.some((flag) => GROWING_FLAG.test(flag))) return undefined;
  const flag = `--heap-growing-percent=${SERVING_HEAP_GROWING_PERCENT}`;
  set(flag);
  return flag;
}
