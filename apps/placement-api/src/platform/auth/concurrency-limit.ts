/**
 * At most `max` tasks run at once; the others wait their turn in arrival order. Each token not
 * yet known costs a validation at Keystone, so without a bound a flood of random tokens would
 * become as many simultaneous connections to Keystone.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private head = 0;

  constructor(private readonly max: number) {}

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length - this.head;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.max) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** A finished task hands its place straight to the next in line, so `running` never dips and overshoots. */
  private release(): void {
    if (this.head === this.waiting.length) {
      this.running--;
      return;
    }
    const next = this.waiting[this.head++];
    // Array.shift() copies the whole queue; a long flood's queue is trimmed now and then instead.
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    next();
  }
}
