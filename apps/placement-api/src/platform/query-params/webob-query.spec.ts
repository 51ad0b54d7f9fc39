import { PlacementError } from '../placement-error.js';
import { decodeUtf8, parseWebobQuery } from './webob-query.js';

const pairs = (raw: string) => [...parseWebobQuery(raw)];
const bytes = (...values: number[]) => values;

function decodeError(input: number[]): string {
  try { decodeUtf8(input); } catch (e) { return (e as Error).message; }
  throw new Error('expected a decode error');
}

describe("webob's query string", () => {
  it('splits on & and ;, keeps blank values and reads + as a space', () => {
    expect(pairs('a=1&&b;c=1+2&d=x=y')).toEqual([['a', '1'], ['b', ''], ['c', '1 2'], ['d', 'x=y']]);
  });

  it("percent-decodes as webob does, keeping escapes Python's int() cannot read", () => {
    expect(pairs('a=%zz&b=%e2%9c%93&%41=%&f=%2B%2')).toEqual([['a', '%zz'], ['b', '✓'], ['A', '%'], ['f', '+\u0002']]);
  });

  it("reports bad UTF-8 with Python's UnicodeDecodeError text", () => {
    expect(decodeError(bytes(0xff))).toBe("'utf-8' codec can't decode byte 0xff in position 0: invalid start byte");
    expect(decodeError(bytes(0x61, 0x80))).toBe("'utf-8' codec can't decode byte 0x80 in position 1: invalid start byte");
    expect(decodeError(bytes(0xe2, 0x28, 0xa1))).toBe("'utf-8' codec can't decode byte 0xe2 in position 0: invalid continuation byte");
    expect(decodeError(bytes(0xf0, 0x90, 0x28))).toBe("'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte");
    expect(decodeError(bytes(0xe2, 0x82))).toBe("'utf-8' codec can't decode bytes in position 0-1: unexpected end of data");
    expect(decodeError(bytes(0xc3))).toBe("'utf-8' codec can't decode byte 0xc3 in position 0: unexpected end of data");
    expect(decodeError(bytes(0xed, 0xa0, 0x80))).toBe("'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte");
    expect(decodeError(bytes(0xc0, 0xaf))).toBe("'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte");
    expect(decodeUtf8(bytes(0xf0, 0x9f, 0x98, 0x80))).toBe('😀');
  });

  it('turns a decode failure into upstream 400', () => {
    let error: PlacementError | undefined;
    try { parseWebobQuery('name=%ff'); } catch (e) { error = e as PlacementError; }
    expect(error).toMatchObject({
      status: 400, detail: "Invalid query string parameters: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
    });
  });
});
