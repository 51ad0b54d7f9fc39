/**
 * V8 flags every serving process runs with (the workers get them from the primary; npm start and
 * the image give them to a single process). The default young generation of up to 3 x 16 MB stays
 * committed for good; 4 MB semi-spaces cost no measurable CPU on the candidates path (2 MB cost a
 * quarter more on 450 KB answers). And the candidate index's start leaves tens of megabytes of
 * parsed snapshot behind, which one full, compacting collection returns (--expose-gc lets the
 * index ask for it, once: libs/placement/src/shared/compact-heap.ts). A worker serving the
 * million-event bench cloud: about 180 MB resident instead of 250.
 */
export const SERVING_HEAP_FLAGS = ['--max-semi-space-size=4', '--expose-gc'];

/** The flags not already given (by the command line or NODE_OPTIONS), so an operator's own choice wins. */
export function missingHeapFlags(given: readonly string[]): string[] {
  const names = given.map((flag) => flag.split('=')[0].replace(/_/g, '-'));
  return SERVING_HEAP_FLAGS.filter((flag) => !names.includes(flag.split('=')[0]));
}
