/** Below this an answer's buffer is cheap to make: it is left to the allocator. */
const SMALLEST = 256 * 1024;
/** Idle buffers kept: enough for the answers of a few clients at once, bounded by the largest answer. */
const KEPT = 8;

/**
 * Output buffers of large answers, used again once a reply has been handed to the kernel. A
 * fresh buffer of megabytes costs a page fault per page on first write: about 0.75 ms for a
 * 2.4 MB answer (nested-1000), more than copying the answer into it.
 */
export class ReplyBuffers {
  private readonly idle: ArrayBuffer[] = [];

  /** A buffer of at least `size` bytes, or null where a new one is as cheap. */
  take(size: number): Buffer | null {
    if (size < SMALLEST) return null;
    const at = this.idle.findIndex((buffer) => buffer.byteLength >= size);
    if (at < 0) return Buffer.allocUnsafe(size);
    const [buffer] = this.idle.splice(at, 1);
    return Buffer.from(buffer);
  }

  /**
   * An answer's memory back, once nothing reads it any more: only after the reply's 'finish'
   * (Node has handed every byte to the kernel), never on a reply that did not finish.
   */
  giveBack(answer: Buffer): void {
    const buffer = answer.buffer;
    if (!(buffer instanceof ArrayBuffer) || buffer.byteLength < SMALLEST || this.idle.includes(buffer)) return;
    if (this.idle.length >= KEPT) this.idle.shift();
    this.idle.push(buffer);
  }
}
