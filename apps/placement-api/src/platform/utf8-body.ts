import { httpBadRequest } from './placement-error.js';

const STRICT = new TextDecoder('utf-8', { fatal: true });

/**
 * A body as text, refusing bytes that are not UTF-8 as upstream does (oslo's jsonutils.loads
 * decodes strictly, and the UnicodeDecodeError becomes "Malformed JSON: ..."). Decoding
 * leniently would store U+FFFD where the client sent something else.
 */
export function decodeUtf8Body(bytes: Buffer): string {
  try {
    return STRICT.decode(bytes);
  } catch {
    const [position, reason] = firstInvalid(bytes);
    const shown = bytes[position].toString(16).padStart(2, '0');
    throw httpBadRequest(`Malformed JSON: 'utf-8' codec can't decode byte 0x${shown} in position ${position}: ${reason}`);
  }
}

/** Where and why Python's decoder stops: the first byte of the first invalid sequence. */
function firstInvalid(bytes: Buffer): [number, string] {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i];
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0) return [i, 'invalid start byte'];
    const sequence = bytes.subarray(i, i + length);
    try {
      STRICT.decode(sequence);
    } catch {
      if (i + length > bytes.length) return [i, 'unexpected end of data'];
      return [i, 'invalid continuation byte'];
    }
    i += length;
  }
  return [0, 'invalid start byte'];
}
