/** Below this an answer's buffer is cheap to make: it is left to the allocator. */
const SMALLEST = 256 * 1024;
/**
 * Above this the answer's own work (an unlimited answer of 100,000 flat providers: 45 MB in about
 * 200 ms) dwarfs its page faults, and keeping such buffers idle would hold hundreds of megabytes.
 */
const LARGEST = 8 * 1024 * 1024;
/** Idle memory kept at most: the answers of a few clients at once. */
const KEPT_BYTES = 32 * 1024 * 1024;

/**
 * Output buffers of large answers, used again once a reply has been handed to the kernel. A
 * fresh buffer of megabytes costs a page fault per page on first write: about 0.75 ms for a
 * 2.4 MB answer (nested-1000), more than copying the answer into it. At most 32 MB stay idle.
 */
export class ReplyBuffers {
  private readonly idle: ArrayBuffer[] = [];
  /** Memory handed out and not yet back: only it may come back (a kept answer's bytes never were lent). */
  private readonly lent = new WeakSet<ArrayBuffer>();

  /** A buffer of at least `size` bytes, or null where a new one is as cheap. */
  take(size: number): Buffer | null {
    if (size < SMALLEST || size > LARGEST) return null;
    const at = this.idle.findIndex((buffer) => buffer.byteLength >= size);
    const buffer = at < 0 ? Buffer.allocUnsafe(size).buffer : this.idle.splice(at, 1)[0];
    this.lent.add(buffer);
    return Buffer.from(buffer);
  }

  /**
   * An answer's memory back, once nothing reads it any more: only after the reply's 'finish'
   * (Node has handed every byte to the kernel), never on a reply that did not finish.
   */
  giveBack(answer: Buffer): void {
    const buffer = answer.buffer;
    if (!(buffer instanceof ArrayBuffer) || !this.lent.delete(buffer)) return;
    this.idle.push(buffer);
    // The oldest go first once the idle memory passes the bound.
    let kept = this.idle.reduce((sum, idle) => sum + idle.byteLength, 0);
    while (kept > KEPT_BYTES) kept -= this.idle.shift()!.byteLength;
  }
}
