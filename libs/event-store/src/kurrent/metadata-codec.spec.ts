import { decodeMetadata, encodeMetadata } from './metadata-codec.js';

describe('KurrentDB metadata codec', () => {
  const audit = { requestId: 'req-1', userId: 'alice', projectId: null, roles: ['admin', 'reader'], generation: 3 };

  it('keeps strings as they are and JSON-encodes everything else under a prefixed key', () => {
    expect(encodeMetadata(audit)).toEqual({
      requestId: 'req-1',
      userId: 'alice',
      'json:projectId': 'null',
      'json:roles': '["admin","reader"]',
      'json:generation': '3',
    });
  });

  it('produces only string values, which is all multiStreamAppend accepts', () => {
    const encoded = encodeMetadata({ ...audit, nested: { a: [1, { b: true }] }, flag: false });
    expect(Object.values(encoded).every((value) => typeof value === 'string')).toBe(true);
  });

  it('round-trips every JSON value exactly', () => {
    const metadata = { ...audit, nested: { a: [1, { b: true }] }, flag: false, empty: '', zero: 0 };
    expect(decodeMetadata(encodeMetadata(metadata))).toEqual(metadata);
  });

  it('drops undefined members, as JSON storage does', () => {
    expect(encodeMetadata({ requestId: 'r', userId: undefined })).toEqual({ requestId: 'r' });
  });

  it('escapes a string whose key would read as encoded or as the server\'s', () => {
    const tricky = { 'json:roles': '[1]', $owner: 'me' };
    const encoded = encodeMetadata(tricky);
    expect(encoded).toEqual({ 'json:json:roles': '"[1]"', 'json:$owner': '"me"' });
    expect(Object.keys(encoded).some((key) => key.startsWith('$'))).toBe(false);
    expect(decodeMetadata(encoded)).toEqual(tricky);
  });

  it('drops the properties the server adds on write', () => {
    const stored = { ...encodeMetadata(audit), '$schema.name': 'ProviderCreated', '$schema.format': 'Json' };
    expect(decodeMetadata(stored)).toEqual(audit);
  });

  it('reads missing, binary or non-object metadata as empty', () => {
    expect(decodeMetadata(undefined)).toEqual({});
    expect(decodeMetadata(new Uint8Array([1, 2]))).toEqual({});
    expect(decodeMetadata(['a'])).toEqual({});
    expect(decodeMetadata('text')).toEqual({});
  });

  it('keeps a foreign value under our prefix that is not JSON as the string it is', () => {
    expect(decodeMetadata({ 'json:note': 'not json' })).toEqual({ note: 'not json' });
  });

  it('passes through metadata another writer stored as a JSON object', () => {
    expect(decodeMetadata({ correlationId: 'c', count: 2 })).toEqual({ correlationId: 'c', count: 2 });
  });
});
