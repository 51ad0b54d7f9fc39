type Latin1Write = (this: Buffer, text: string, offset: number) => number;
// Node's own per-encoding writer; Buffer#write first normalizes its arguments on every call.
const latin1Write: Latin1Write = (Buffer.prototype as unknown as { latin1Write?: Latin1Write }).latin1Write
  ?? function (this: Buffer, text: string, offset: number) { return this.write(text, offset, 'latin1'); };

/** Pieces are joined as a JS string (cheap) and copied to bytes in chunks of about this size. */
const CHUNK = 32 * 1024;

/**
 * A growing byte buffer for JSON made only of ASCII: writing straight to bytes skips building
 * one half-megabyte string and encoding it again when the reply is sent, and collecting small
 * pieces into chunks keeps the number of native copies low.
 */
export class AsciiWriter {
  private buffer: Buffer;
  private at = 0;
  private pending = '';

  constructor(sizeHint = 64 * 1024) {
    this.buffer = Buffer.allocUnsafe(sizeHint);
  }

  text(text: string): void {
    this.pending += text;
    if (this.pending.length >= CHUNK) this.flush();
  }

  /** The bytes written; the writer must not be used afterwards. */
  done(): Buffer {
    this.flush();
    return this.buffer.subarray(0, this.at);
  }

  private flush(): void {
    const text = this.pending;
    this.pending = '';
    if (this.at + text.length > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + text.length));
      this.buffer.copy(grown, 0, 0, this.at);
      this.buffer = grown;
    }
    this.at += latin1Write.call(this.buffer, text, this.at);
  }
}
