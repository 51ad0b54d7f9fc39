import { httpBadRequest } from '../placement-error.js';

/** webob's unquote: each `%` takes the next two characters if Python's int(…, 16) reads them. */
function unquote(bytes: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x25) {
      out.push(bytes[i]);
      continue;
    }
    const pair = String.fromCharCode(...bytes.slice(i + 1, i + 3));
    if (/^\s*[0-9a-f]+\s*$/i.test(pair)) {
      out.push(parseInt(pair.trim(), 16));
      i += pair.length;
    } else {
      out.push(0x25);
    }
  }
  return out;
}

const continuation = (b: number | undefined) => b !== undefined && b >= 0x80 && b <= 0xbf;

/** The bounds CPython's decoder puts on the second byte after each lead byte. */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** Strict UTF-8, failing with the text of Python's UnicodeDecodeError. */
export function decodeUtf8(bytes: number[]): string {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i];
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    const fail = (end: number, reason: string) => {
      const where = end - i === 1 ? `byte 0x${lead.toString(16).padStart(2, '0')} in position ${i}` : `bytes in position ${i}-${end - 1}`;
      return new Error(`'utf-8' codec can't decode ${where}: ${reason}`);
    };
    if (length === 0) throw fail(i + 1, 'invalid start byte');
    let j = i + 1;
    for (; j < i + length; j++) {
      if (j >= bytes.length) throw fail(j, 'unexpected end of data');
      const [low, high] = j === i + 1 ? secondByteRange(lead) : [0x80, 0xbf];
      if (!continuation(bytes[j]) || bytes[j] < low || bytes[j] > high) throw fail(j, 'invalid continuation byte');
    }
    i = j;
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The query string as upstream's webob reads it: pairs split on `&` and `;`, `+` as a space,
 * its own percent-decoding, then strict UTF-8 — whose failure upstream's validate_query_params
 * turns into a 400. `raw` is the query as received (characters standing for bytes).
 */
export function parseWebobQuery(raw: string): URLSearchParams {
  const query = new URLSearchParams();
  for (const pair of raw.split(/[&;]/)) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const [name, value] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    const bytesOf = (text: string) => unquote([...Buffer.from(text.replace(/\+/g, ' '), 'latin1')]);
    try {
      query.append(decodeUtf8(bytesOf(name)), decodeUtf8(bytesOf(value)));
    } catch (error) {
      throw httpBadRequest(`Invalid query string parameters: ${(error as Error).message}`);
    }
  }
  return query;
}
