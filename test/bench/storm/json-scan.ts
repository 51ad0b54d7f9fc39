const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d, OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function escaped(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] === BACKSLASH) return true;
  return false;
}

/** The string whose quoted JSON lies in bytes[start, end). */
function stringAt(bytes: Buffer, start: number, end: number): string {
  const text = bytes.toString('utf8', start + 1, end - 1);
  return text.includes('\\') ? JSON.parse(bytes.toString('utf8', start, end)) as string : text;
}

/**
 * Reads chosen parts of a JSON text where they lie, in its UTF-8 bytes, skipping the rest
 * without building it: a scheduler of the storm reads a few fields of each provider in an answer
 * of hundreds, and JSON.parse building the whole answer cost the load generator more CPU than
 * the servers it measures, on the cores they share. Decoding each answer to a string cost it
 * more than reading it: a string that large is given fresh memory each time. The text is taken
 * to be valid JSON (it came from JSON.parse's peers, the servers): malformed text throws or reads
 * wrong.
 *
 * A cursor, read in loops: `openObject()`, then `while (nextEntry())` reads or skips each value;
 * `openArray()` and `nextItem()` alike. Not entries handed to callbacks with an object for each
 * name: a call the engine cannot inline and an allocation for every name of every provider.
 */
export class JsonScan {
  /** Where the next value (or the space before it) begins. */
  at = 0;
  /** The name of the entry nextEntry() reached last lies in bytes[nameStart, nameEnd), its quotes included. */
  nameStart = 0;
  nameEnd = 0;
  /** Whether the object or array just opened has had no member read yet. */
  private opened = false;

  constructor(readonly bytes: Buffer) {}

  /** Passes the object's opening brace here: its entries are then read with nextEntry(). */
  openObject(): void {
    this.open(OPEN_OBJECT);
    this.opened = true;
  }

  /** Passes the array's opening bracket here: its items are then read with nextItem(). */
  openArray(): void {
    this.open(OPEN_ARRAY);
    this.opened = true;
  }

  /**
   * The next entry of the object opened, the scan then at its value, which must be read or
   * skipped before the next call; false at the object's end, which is passed.
   */
  nextEntry(): boolean {
    if (!this.nextMember(CLOSE_OBJECT)) return false;
    this.nameStart = this.at;
    this.at = this.nameEnd = this.stringEnd(this.at);
    this.open(COLON);
    this.space();
    return true;
  }

  /** The next item of the array opened, the scan then at it, as nextEntry() does. */
  nextItem(): boolean {
    return this.nextMember(CLOSE_ARRAY);
  }

  /** Whether the entry's name is `name`, an ASCII name as code would spell it. */
  nameIs(name: string): boolean {
    const length = this.nameEnd - this.nameStart - 2;
    // A name written with escapes is longer than the text it stands for.
    if (length > name.length) return escaped(this.bytes, this.nameStart, this.nameEnd) && this.name() === name;
    if (length < name.length) return false;
    for (let i = 0; i < length; i++) if (this.bytes[this.nameStart + 1 + i] !== name.charCodeAt(i)) return false;
    return true;
  }

  /** The entry's name, decoded. */
  name(): string {
    return stringAt(this.bytes, this.nameStart, this.nameEnd);
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

  /**
   * Whether the string value here is written byte for byte as bytes[start, end) (a name's, say),
   * so the same text; passed when it is. Texts written apart (escaped in one) are not told alike.
   */
  stringIs(start: number, end: number): boolean {
    this.space();
    const valueEnd = this.stringEnd(this.at);
    if (valueEnd - this.at !== end - start) return false;
    for (let i = 0; i < end - start; i++) if (this.bytes[this.at + i] !== this.bytes[start + i]) return false;
    this.at = valueEnd;
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

  /** Before a member of what was opened: false at its closing bracket (passed), else true, past the comma before the member. */
  private nextMember(bracket: number): boolean {
    const c = this.peek();
    if (c === bracket) {
      this.at++;
      this.opened = false;
      return false;
    }
    if (this.opened) this.opened = false;
    else if (c === COMMA) this.at++;
    else throw this.unexpected(this.at, `a comma or ${String.fromCharCode(bracket)}`);
    this.space();
    return true;
  }

  private unexpected(at: number, wanted: string): Error {
    return new Error(`JSON: ${wanted} expected at ${at}, found ${JSON.stringify(this.bytes.toString('utf8', at, at + 20))}`);
  }
}
