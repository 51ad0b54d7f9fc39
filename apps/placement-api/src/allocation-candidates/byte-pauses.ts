import type { AsciiWriter } from './ascii-writer.js';

/**
 * Bytes written between two pauses of an answer (presentSteps): a wide tree's candidate takes
 * from ten providers and a root's summaries may be its whole tree, so a count of items bounds
 * nothing; a megabyte counted by items was once written without a pause.
 */
const PAUSE_BYTES = 64 * 1024;

/** A pause due once PAUSE_BYTES more are in `out` since the last one, across every list of one body. */
export class BytePauses {
  private at = 0;

  constructor(private readonly out: AsciiWriter) {}

  get due(): boolean {
    if (this.out.length - this.at < PAUSE_BYTES) return false;
    this.at = this.out.length;
    return true;
  }
}
