import { hostileJsonReason, hostileString, MAX_JSON_DEPTH } from './hostile-json.js';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('JSON values no handler or SQL statement may see', () => {
  it('accepts ordinary bodies, paired surrogates included', () => {
    expect(hostileJsonReason({ name: 'rp 😀', inventories: { VCPU: { total: 8 } }, list: [null, true, 1.5] })).toBeUndefined();
    expect(hostileJsonReason(nested(MAX_JSON_DEPTH))).toBeUndefined();
  });

  it('refuses nesting past the limit without recursing, however deep', () => {
    expect(hostileJsonReason(nested(MAX_JSON_DEPTH + 1))).toMatch(/nested deeper/);
    expect(hostileJsonReason(nested(200_000))).toMatch(/nested deeper/);
  });

  it('refuses NUL and lone surrogates in values and in keys', () => {
    expect(hostileJsonReason({ name: 'a\u0000b' })).toMatch(/NUL/);
    expect(hostileJsonReason({ ['k\u0000']: 1 })).toMatch(/NUL/);
    expect(hostileJsonReason([{ name: '\ud800' }])).toMatch(/unpaired surrogate \(\\ud800\)/);
    expect(hostileString('x\udc00')).toMatch(/unpaired surrogate \(\\udc00\)/);
    expect(hostileString('\ud83d\ude00')).toBeUndefined();
  });
});
