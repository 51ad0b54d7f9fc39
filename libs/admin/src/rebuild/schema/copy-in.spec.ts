import { columnFormatter, copyText } from './copy-in.js';

describe('COPY text format', () => {
  it('writes null as \\N and escapes what separates fields and rows, so no value can pose as either', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText('\\N')).toBe('\\\\N');
    expect(copyText('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyText('plain ünïcode')).toBe('plain ünïcode');
  });

  it('writes booleans, numbers, instants to the millisecond and jsonb', () => {
    expect([copyText(true), copyText(false), copyText(1.5), copyText(2147483647)]).toEqual(['t', 'f', '1.5', '2147483647']);
    expect(copyText(new Date('2026-01-02T03:04:05.006Z'))).toBe('2026-01-02T03:04:05.006Z');
    expect(copyText({ VCPU: 2, note: 'tab\there' })).toBe('{"VCPU":2,"note":"tab\\\\there"}');
  });

  it('formats a timestamp column the same, however often an instant repeats', () => {
    const format = columnFormatter('timestamp with time zone');
    const at = new Date('2026-01-02T03:04:05.006Z');
    expect([format(at), format(new Date(at.getTime())), format(null)]).toEqual(['2026-01-02T03:04:05.006Z', '2026-01-02T03:04:05.006Z', '\\N']);
    expect(columnFormatter('character varying(200)')('x\ty')).toBe('x\\ty');
  });
});
