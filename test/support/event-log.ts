import type { RecordedEvent } from '#event-store/index.js';

/**
 * Makes recorded events for projection specs: each stream's revisions count from 0 and every
 * event is one second and one position after the previous, from 2026-01-01T00:00:00Z.
 */
export function eventLog(): (stream: string, type: string, data: Record<string, unknown>) => RecordedEvent<any> {
  let second = 0;
  const revisions = new Map<string, number>();
  return (stream, type, data) => {
    const revision = (revisions.get(stream) ?? -1) + 1;
    revisions.set(stream, revision);
    second++;
    return {
      stream, revision, position: { commit: BigInt(second), prepare: BigInt(second) }, type, data: { ...data, v: 1 },
      metadata: {}, recordedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)),
    };
  };
}
