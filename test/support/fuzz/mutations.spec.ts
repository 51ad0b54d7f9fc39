import { chunkedBody, toBytes } from './mutations.js';
import { REQUEST_47203 } from './regressions.js';

describe('fuzz requests are complete', () => {
  it('frames a chunked body as one chunk and the last chunk, so `1` is not read as a chunk size awaiting its line end', () => {
    const bytes = toBytes(REQUEST_47203('p')).toString('latin1');
    expect(bytes.endsWith('\r\n\r\n1\r\n1\r\n0\r\n\r\n')).toBe(true);
    expect(bytes).not.toMatch(/content-length/i);
  });

  it('ends an empty chunked body with the last chunk alone', () => {
    expect(chunkedBody(Buffer.alloc(0)).toString()).toBe('0\r\n\r\n');
    expect(chunkedBody(Buffer.from('{"a": 1}')).toString()).toBe('8\r\n{"a": 1}\r\n0\r\n\r\n');
  });
});
