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

  /** `buffer`: memory to write into (it grows past it if need be), or a new buffer of `sizeHint`. */
  constructor(sizeHint = 64 * 1024, buffer?: Buffer | null) {
    this.buffer = buffer ?? Buffer.allocUnsafe(sizeHint);
  }

  text(text: string): void {
    this.pending += text;
    if (this.pending.length >= CHUNK) this.flush();
  }

  /** Bytes made earlier (a cached piece): copied once, never decoded into a string again. */
  bytes(bytes: Buffer): void {
    if (this.pending.length > 0) this.flush();
    this.reserve(bytes.length);
    // TypedArray#set: a native copy; Buffer#copy checks its arguments in JS on every call.
    this.buffer.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** One ASCII character by its code: joined to the text being collected, if any, so as not to cut it short. */
  byte(code: number): void {
    if (this.pending.length > 0) return this.text(String.fromCharCode(code));
    this.reserve(1);
    this.buffer[this.at++] = code;
  }

  /** Bytes written so far: every character is one byte. */
  get length(): number {
    return this.at + this.pending.length;
  }

  /** The bytes written; the writer must not be used afterwards. */
  done(): Buffer {
    this.flush();
    return this.buffer.subarray(0, this.at);
  }

  private flush(): void {
    const text = this.pending;
    this.pending = '';
    this.reserve(text.length);
    this.at += latin1Write.call(this.buffer, text, this.at);
  }

  private reserve(length: number): void {
    if (this.at + length <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + length));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }
}
