import { setFlagsFromString } from 'node:v8';

/**
 * One full collection that also compacts the old generation, for a process that just parsed and
 * dropped a large snapshot (the candidate index at start). A plain full collection frees the
 * objects but leaves their pages committed, scattered among the live ones; compacted, the heap
 * shrinks to what lives (docs/performance.md). Compaction is asked for this once only, then
 * left to V8's heuristics again. Needs --expose-gc (heap-flags.ts); without it nothing happens.
 */
export function compactHeapOnce(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}
