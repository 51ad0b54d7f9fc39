const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d, OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * An entry's name where it lies in the bytes, compared without being decoded: a scheduler
 * compares every name of an answer of hundreds of providers and needs the text of few.
 */
export class JsonKey {
  /** The name lies in bytes[start, end), its quotes included. */
  constructor(private readonly bytes: Buffer, private readonly start: number, private readonly end: number) {}

  /** Whether the name is `name`, an ASCII name as code would spell it. */
  is(name: string): boolean {
    const length = this.end - this.start - 2;
    let same = length === name.length;
    for (let i = 0; same && i < length; i++) same = this.bytes[this.start + 1 + i] === name.charCodeAt(i);
    return same || (escaped(this.bytes, this.start, this.end) && this.text() === name);
  }

  text(): string {
    return stringAt(this.bytes, this.start, this.end);
  }

  /** Whether bytes[start, end) hold the same quoted text, byte for byte, neither escaped. */
  sameBytes(bytes: Buffer, start: number, end: number): boolean {
    if (end - start !== this.end - this.start || escaped(bytes, start, end)) return false;
    for (let i = 0; i < end - start; i++) if (bytes[start + i] !== this.bytes[this.start + i]) return false;
    return true;
  }
}

function escaped(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] === BACKSLASH) return true;
  return false;
}

/** The string whose quoted JSON lies in bytes[start, end). */
function stringAt(bytes: Buffer, start: number, end: number): string {
  return escaped(bytes, start, end) ? JSON.parse(bytes.toString('utf8', start, end)) as string : bytes.toString('utf8', start + 1, end - 1);
}

/**
 * Reads chosen parts of a JSON text where they lie, in its UTF-8 bytes, skipping the rest
 * without building it: a scheduler of the storm reads a few fields of each provider in an answer
 * of hundreds, and JSON.parse building the whole answer cost the load generator more CPU than
 * the servers it measures, on the cores they share. Decoding each answer to a string cost it
 * more than reading it: a string that large is given fresh memory each time. The text is taken
 * to be valid JSON (it came from JSON.parse's peers, the servers): malformed text throws or reads
 * wrong.
 */
export class JsonScan {
  /** Where the next value (or the space before it) begins. */
  at = 0;

  constructor(readonly bytes: Buffer) {}

  /**
   * The object here, entry by entry: `each` is called with the scan at the entry's value, and
   * may read it (string(), number(), entries(), items(), skip()); a value it leaves is skipped.
   */
  entries(each: (key: JsonKey) => void): void {
    this.open(OPEN_OBJECT);
    if (this.peek() === CLOSE_OBJECT) { this.at++; return; }
    for (;;) {
      this.space();
      const start = this.at;
      this.at = this.stringEnd(start);
      const key = new JsonKey(this.bytes, start, this.at);
      this.open(COLON);
      this.space();
      const value = this.at;
      each(key);
      if (this.at === value) this.skip();
      if (this.close(CLOSE_OBJECT)) return;
    }
  }

  /** The array here, item by item: `each` is called with the scan at the item, as entries() does. */
  items(each: () => void): void {
    this.open(OPEN_ARRAY);
    if (this.peek() === CLOSE_ARRAY) { this.at++; return; }
    for (;;) {
      this.space();
      const value = this.at;
      each();
      if (this.at === value) this.skip();
      if (this.close(CLOSE_ARRAY)) return;
    }
  }

  string(): string {
    this.space();
    const start = this.at;
    this.at = this.stringEnd(start);
    return stringAt(this.bytes, start, this.at);
  }

  number(): number {
    this.space();
    const start = this.at;
    this.at = this.scalarEnd(start);
    // Counts and sizes are whole numbers: read where they lie; any other number is decoded.
    let value = 0;
    for (let i = start; i < this.at; i++) {
      const digit = this.bytes[i] - 0x30;
      if (digit < 0 || digit > 9 || value > Number.MAX_SAFE_INTEGER / 10) return Number(this.bytes.toString('latin1', start, this.at));
      value = value * 10 + digit;
    }
    return value;
  }

  /** Whether the string value here is the same text as `key`'s name (no escapes in either), passing it when it is. */
  stringIs(key: JsonKey): boolean {
    this.space();
    const end = this.stringEnd(this.at);
    if (!key.sameBytes(this.bytes, this.at, end)) return false;
    this.at = end;
    return true;
  }

  /** The value here, passed over; where its bytes began and ended, to read it whole with JSON.parse. */
  skip(): { from: number; to: number } {
    this.space();
    const from = this.at;
    const c = this.bytes[from];
    if (c === QUOTE) this.at = this.stringEnd(from);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.at = this.nestedEnd(from);
    else this.at = this.scalarEnd(from);
    return { from, to: this.at };
  }

  /** Just past the closing quote of the string opening at `start`. */
  private stringEnd(start: number): number {
    if (this.bytes[start] !== QUOTE) throw this.unexpected(start, 'a string');
    // A loop, not indexOf: the strings of an answer are short, and the native call costs more.
    for (let end = start + 1; ; end++) {
      while (end < this.bytes.length && this.bytes[end] !== QUOTE) end++;
      if (end >= this.bytes.length) throw this.unexpected(this.bytes.length, 'the end of a string');
      let backslashes = 0;
      while (this.bytes[end - 1 - backslashes] === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return end + 1;
    }
  }

  /** Just past the object or array opening at `start`, strings inside jumped over whole. */
  private nestedEnd(start: number): number {
    let depth = 0;
    for (let i = start; i < this.bytes.length; i++) {
      const c = this.bytes[i];
      if (c === QUOTE) i = this.stringEnd(i) - 1;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
      else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return i + 1;
    }
    throw this.unexpected(this.bytes.length, 'the end of an object or array');
  }

  private scalarEnd(start: number): number {
    let i = start;
    for (; i < this.bytes.length; i++) {
      const c = this.bytes[i];
      if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isSpace(c)) break;
    }
    if (i === start) throw this.unexpected(start, 'a value');
    return i;
  }

  private space(): void {
    while (isSpace(this.bytes[this.at])) this.at++;
  }

  private peek(): number {
    this.space();
    return this.bytes[this.at];
  }

  private open(c: number): void {
    if (this.peek() !== c) throw this.unexpected(this.at, String.fromCharCode(c));
    this.at++;
  }

  /** After a member: true at the closing bracket (passed), false at a comma (passed). */
  private close(bracket: number): boolean {
    const c = this.peek();
    this.at++;
    if (c === bracket) return true;
    if (c !== COMMA) throw this.unexpected(this.at - 1, `a comma or ${String.fromCharCode(bracket)}`);
    return false;
  }

  private unexpected(at: number, wanted: string): Error {
    return new Error(`JSON: ${wanted} expected at ${at}, found ${JSON.stringify(this.bytes.toString('utf8', at, at + 20))}`);
  }
}
