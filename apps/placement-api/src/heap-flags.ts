/**
 * V8 flags every serving process runs with (the workers get them from the primary; npm start and
 * the image give them to a single process).
 * - A young generation of 16 MB semi-spaces, fixed: ten concurrent candidate answers outgrow
 *   smaller ones, whose survivors then go to the old generation. V8 lets it grow under load but
 *   shrinks it while the process is idle, so the first burst after a quiet minute (a scheduler's
 *   day) cost far more CPU per request than the ones before the pause (docs/performance.md).
 * - --expose-gc: the candidate index's start leaves tens of megabytes of parsed snapshot behind,
 *   which one full, compacting collection returns (once, after start: operations/compact-heap.ts).
 * What changes once the process serves is set by the process itself (operations/serving-heap.ts).
 */
export const SERVING_HEAP_FLAGS = ['--min-semi-space-size=16', '--max-semi-space-size=16', '--expose-gc'];

/** The flags not already given (by the command line or NODE_OPTIONS), so an operator's own choice wins. */
export function missingHeapFlags(given: readonly string[]): string[] {
  // The young generation's bounds are one setting: an operator who sets either sets it.
  const nameOf = (flag: string) => flag.split('=')[0].replace(/_/g, '-').replace(/^--(min|max)-semi-space-size$/, 'semi-space');
  const names = given.map(nameOf);
  return SERVING_HEAP_FLAGS.filter((flag) => !names.includes(nameOf(flag)));
}
