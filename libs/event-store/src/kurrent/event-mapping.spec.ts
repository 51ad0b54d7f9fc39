import type { RecordedEvent as ClientRecordedEvent } from '@kurrent/kurrentdb-client';
import { isSystemEvent, toEventData, toRecordedEvent } from './event-mapping.js';

const created = new Date('2025-03-04T05:06:07.089Z');
const stored = (overrides: Partial<Record<string, unknown>> = {}) => ({
  streamId: 'provider-1', id: 'e1', revision: 4n, type: 'ProviderCreated', isJson: true, created,
  data: { uuid: 'p1', name: 'cn1' },
  metadata: { requestId: 'req-1', 'json:roles': '["admin"]', 'json:projectId': 'null', '$schema.name': 'ProviderCreated' },
  position: { commit: 5000n, prepare: 5000n },
  ...overrides,
}) as unknown as ClientRecordedEvent;

describe('KurrentDB event mapping', () => {
  it('writes our event as a JSON event with string-only metadata', () => {
    const data = toEventData({ type: 'ProviderCreated', data: { uuid: 'p1' }, metadata: { requestId: 'r', roles: ['admin'] } });
    expect(data).toMatchObject({
      contentType: 'application/json', type: 'ProviderCreated', data: { uuid: 'p1' },
      metadata: { requestId: 'r', 'json:roles': '["admin"]' },
    });
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes an event without metadata with an empty metadata object', () => {
    expect(toEventData({ type: 'T', data: {} }).metadata).toEqual({});
  });

  it('reads a stored event back into the port\'s shape', () => {
    expect(toRecordedEvent(stored())).toEqual({
      stream: 'provider-1', revision: 4, type: 'ProviderCreated', data: { uuid: 'p1', name: 'cn1' },
      metadata: { requestId: 'req-1', roles: ['admin'], projectId: null },
      position: { commit: 5000n, prepare: 5000n }, recordedAt: created,
    });
  });

  it('round-trips type, data and metadata', () => {
    const event = { type: 'AllocationsReplaced', data: { consumer: 'c', allocations: [{ rp: 'p', used: 2 }] }, metadata: { requestId: 'r', userId: null, roles: [] } };
    const written = toEventData(event);
    const read = toRecordedEvent(stored({ type: written.type, data: written.data, metadata: { ...written.metadata, '$schema.format': 'Json' } }));
    expect(read).toMatchObject({ type: event.type, data: event.data, metadata: event.metadata });
  });

  it('parses JSON data that arrives as bytes', () => {
    const bytes = new Uint8Array(Buffer.from('{"uuid":"p9"}'));
    expect(toRecordedEvent(stored({ isJson: false, data: bytes }))?.data).toEqual({ uuid: 'p9' });
  });

  it('leaves out system events and what is not a JSON object', () => {
    expect(toRecordedEvent(stored({ type: '$metadata' }))).toBeUndefined();
    expect(toRecordedEvent(stored({ streamId: '$$provider-1' }))).toBeUndefined();
    expect(toRecordedEvent(stored({ isJson: false, data: new Uint8Array([0xff, 0x00]) }))).toBeUndefined();
    expect(toRecordedEvent(stored({ data: 'a string' }))).toBeUndefined();
  });

  it('refuses an event without a log position rather than invent one', () => {
    expect(() => toRecordedEvent(stored({ position: undefined }))).toThrow('KurrentDB returned event provider-1@4 without its log position');
  });

  it('recognizes system streams and types by their "$"', () => {
    expect(isSystemEvent({ streamId: '$et-ProviderCreated', type: '$>' })).toBe(true);
    expect(isSystemEvent({ streamId: '$scavenges', type: 'ScavengeStarted' })).toBe(true);
    expect(isSystemEvent({ streamId: 'provider-1', type: '$metadata' })).toBe(true);
    expect(isSystemEvent({ streamId: 'provider-1', type: 'ProviderCreated' })).toBe(false);
  });
});
