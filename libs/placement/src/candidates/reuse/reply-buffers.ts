import { ReuseBudget } from './reuse-budget.js';

/** Below this an answer's buffer is cheap to make: it is left to the allocator. */
const SMALLEST = 256 * 1024;
/**
 * Above this the answer's own work (an unlimited answer of a whole large cloud) dwarfs its page
 * faults, and keeping such buffers idle would hold hundreds of megabytes.
 */
const LARGEST = 8 * 1024 * 1024;
/**
 * Output buffers of large answers, used again once a reply has been handed to the kernel. A
 * fresh buffer of megabytes costs a page fault per page on first write, more than copying the
 * answer into it (docs/performance.md). Idle ones count against the reuse budget and are the
 * first to go past it.
 */
export class ReplyBuffers {
  private readonly idle: ArrayBuffer[] = [];
  /**
   * Memory handed out and not yet back, with how many hold it (the reply, and a kept body):
   * only it may come back, once each holder has given it back (a kept answer's bytes written
   * elsewhere never were lent).
   */
  private readonly lent = new WeakMap<ArrayBuffer, number>();

  constructor(private readonly budget: ReuseBudget) {
    budget.reclaimWith(() => this.dropOldest());
  }

  /** A buffer of at least `size` bytes, or null where a new one is as cheap. */
  take(size: number): Buffer | null {
    if (size < SMALLEST || size > LARGEST) return null;
    const at = this.idle.findIndex((buffer) => buffer.byteLength >= size);
    const buffer = at < 0 ? Buffer.allocUnsafe(size).buffer : this.idle.splice(at, 1)[0];
    if (at >= 0) this.budget.release(buffer.byteLength);
    this.lent.set(buffer, 1);
    return Buffer.from(buffer);
  }

  /** One more holder of an answer's memory (its body kept as well as sent), if it was lent. */
  share(answer: Buffer): void {
    const buffer = answer.buffer;
    if (!(buffer instanceof ArrayBuffer)) return;
    const holders = this.lent.get(buffer);
    if (holders !== undefined) this.lent.set(buffer, holders + 1);
  }

  /**
   * An answer's memory back from one holder, once it reads it no more: the reply after its
   * 'finish' (Node has handed every byte to the kernel), never on a reply that did not finish; a
   * kept body when it is let go.
   */
  giveBack(answer: Buffer): void {
    const buffer = answer.buffer;
    if (!(buffer instanceof ArrayBuffer)) return;
    const holders = this.lent.get(buffer);
    if (holders === undefined) return;
    if (holders > 1) return void this.lent.set(buffer, holders - 1);
    this.lent.delete(buffer);
    this.idle.push(buffer);
    this.budget.add(buffer.byteLength);
  }

  private dropOldest(): boolean {
    const oldest = this.idle.shift();
    if (oldest) this.budget.release(oldest.byteLength);
    return oldest !== undefined;
  }
}
