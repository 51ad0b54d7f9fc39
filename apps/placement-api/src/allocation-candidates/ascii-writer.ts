type Latin1Write = (this: Buffer, text: string, offset: number) => number;
// Node's own per-encoding writer; Buffer#write first normalizes its arguments on every call.
const latin1Write: Latin1Write = (Buffer.prototype as unknown as { latin1Write?: Latin1Write }).latin1Write
  ?? function (this: Buffer, text: string, offset: number) { return this.write(text, offset, 'latin1'); };

/**
 * A growing byte buffer for JSON made only of ASCII: writing straight to bytes skips building
 * one half-megabyte string and encoding it again when the reply is sent.
 */
export class AsciiWriter {
  private buffer: Buffer;
  private at = 0;

  constructor(sizeHint = 64 * 1024) {
    this.buffer = Buffer.allocUnsafe(sizeHint);
  }

  text(text: string): void {
    this.room(text.length);
    this.at += latin1Write.call(this.buffer, text, this.at);
  }

  /** The bytes written; the writer must not be used afterwards. */
  done(): Buffer {
    return this.buffer.subarray(0, this.at);
  }

  private room(length: number): void {
    if (this.at + length <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + length));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }
}
