import { decodeUtf8Body } from './utf8-body.js';

const detail = (bytes: number[]) => {
  try {
    decodeUtf8Body(Buffer.from(bytes));
  } catch (error) {
    return (error as Error).message;
  }
  return 'decoded';
};

describe('request bodies as strict UTF-8', () => {
  it('decodes valid UTF-8', () => {
    expect(decodeUtf8Body(Buffer.from('{"name": "é😀"}'))).toBe('{"name": "é😀"}');
  });

  it("refuses other bytes with Python's UnicodeDecodeError text, as upstream's Malformed JSON", () => {
    expect(detail([0x7b, 0x22, 0xff, 0x22])).toBe("Malformed JSON: 'utf-8' codec can't decode byte 0xff in position 2: invalid start byte");
    expect(detail([0x22, 0xc3, 0x28])).toBe("Malformed JSON: 'utf-8' codec can't decode byte 0xc3 in position 1: invalid continuation byte");
    expect(detail([0x22, 0xe2, 0x82])).toBe("Malformed JSON: 'utf-8' codec can't decode byte 0xe2 in position 1: unexpected end of data");
  });
});
