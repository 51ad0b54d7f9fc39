/**
 * V8 flags every serving process runs with (the workers get them from the primary; npm start and
 * the image give them to a single process).
 * - A young generation of 16 MB semi-spaces, fixed: ten concurrent flat-1000 candidate answers
 *   (458 KB each) outgrow smaller ones, whose survivors then go to the old generation. V8 lets it
 *   grow to 16 MB under load but shrinks it while the process is idle, so the first burst after a
 *   quiet minute (a scheduler's day) ran at 2.8-3.9 ms of server CPU per request for 1,500
 *   requests against 1.3-2.0 before the pause; fixed, 1.0-1.9 either side of it (ab, 10 clients,
 *   2026-11-27). 4 and 8 MB semi-spaces cost 3.1-4.3 ms per request. It is 36 MB more committed
 *   than the 4 MB it once was.
 * - --expose-gc: the candidate index's start leaves tens of megabytes of parsed snapshot behind,
 *   which one full, compacting collection returns (the index asks for it, once:
 *   libs/placement/src/shared/compact-heap.ts).
 */
export const SERVING_HEAP_FLAGS = ['--min-semi-space-size=16', '--max-semi-space-size=16', '--expose-gc'];

/** The flags not already given (by the command line or NODE_OPTIONS), so an operator's own choice wins. */
export function missingHeapFlags(given: readonly string[]): string[] {
  // The young generation's bounds are one setting: an operator who sets either sets it.
  const nameOf = (flag: string) => flag.split('=')[0].replace(/_/g, '-').replace(/^--(min|max)-semi-space-size$/, 'semi-space');
  const names = given.map(nameOf);
  return SERVING_HEAP_FLAGS.filter((flag) => !names.includes(nameOf(flag)));
}
