import type { Steps } from '#placement/candidates/search/steps.js';
import type { AsciiWriter } from './ascii-writer.js';
import type { BytePauses } from './byte-pauses.js';

const COMMA = 0x2c;

/** Where each entry of a comma-separated list starts in a body, and one past the list's end plus one. */
export type EntryStarts = Int32Array;

/**
 * The same list in an earlier body: its bytes, its entries' starts, which of them entry i of
 * the list being written was (`from`, -1 for none), and whether that entry's bytes still hold.
 */
export interface EarlierList {
  readonly bytes: Buffer;
  readonly starts: EntryStarts;
  readonly from: Int32Array;
  readonly same: (earlier: number) => boolean;
}

/**
 * A comma-separated list of `count` entries, each written by `write` or, where an earlier body
 * holds it still, copied from there: consecutive entries of the earlier list in one copy. Records
 * where each entry starts (`starts`, count + 1 long), so that a later body can copy from this one.
 * Pauses after an entry or a run whenever `pauses` says one is due.
 */
export function* writeEntries(
  out: AsciiWriter, count: number, starts: EntryStarts, earlier: EarlierList | null, write: (i: number) => void, pauses: BytePauses,
): Steps<void> {
  for (let i = 0; i < count;) {
    if (i > 0) out.byte(COMMA);
    const first = earlier ? earlier.from[i] : -1;
    let last = i;
    if (earlier && first >= 0 && earlier.same(first)) {
      const { from, same, bytes, starts: earlierStarts } = earlier;
      while (last + 1 < count && from[last + 1] === from[last] + 1 && same(from[last + 1])) last++;
      const at = out.length;
      const origin = earlierStarts[first];
      for (let k = i; k <= last; k++) starts[k] = at + earlierStarts[from[k]] - origin;
      // Up to the comma after the run's last entry.
      out.bytes(bytes.subarray(origin, earlierStarts[from[last] + 1] - 1));
    } else {
      starts[i] = out.length;
      write(i);
    }
    i = last + 1;
    if (pauses.due) yield;
  }
  // As if a comma followed the last entry, so every entry ends one before the next start.
  starts[count] = out.length + 1;
}
