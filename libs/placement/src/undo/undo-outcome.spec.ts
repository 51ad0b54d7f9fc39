import { UndoPlan } from '#domain/index.js';
import { outcomeOf } from './undo-outcome.js';

const stream = (events: number, problems: string[] = []): UndoPlan['streams'][number] => ({
  stream: 'consumer-c', kind: 'consumer', uuid: 'c', now: { status: 'absent' }, then: { status: 'absent' }, problems,
  events: Array.from({ length: events }, (_, generation) => ({ type: 'ConsumerRemoved', data: { generation, v: 1 } }) as const),
});
const later = { stream: 'consumer-c', revision: 3, type: 'ConsumerRemoved', request_id: 'req-x', user_id: 'bob', time: '2026-01-01T00:00:00.000000Z' };

describe('an undo outcome', () => {
  it('has the same hash for the same plan, and another when anything to append or refuse changes', () => {
    const plan = { streams: [stream(1)] };
    const hash = outcomeOf('restore', 't', plan, [], []).hash;
    expect(outcomeOf('restore', 't', { streams: [stream(1)] }, [], []).hash).toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(outcomeOf('restore', 't', { streams: [stream(2)] }, [], []).hash).not.toBe(hash);
    expect(outcomeOf('restore', 't', { streams: [stream(1, ['why'])] }, [], []).hash).not.toBe(hash);
    expect(outcomeOf('restore', 'u', plan, [], []).hash).not.toBe(hash);
    expect(outcomeOf('revert', 't', plan, [], [later]).hash).not.toBe(outcomeOf('revert', 't', plan, [], []).hash);
  });

  it('is ready with something to append, refused by a conflict or (for a revert) any problem, else nothing to do', () => {
    expect(outcomeOf('restore', 't', { streams: [stream(1)] }, [], []).status).toBe('ready');
    expect(outcomeOf('restore', 't', { streams: [stream(0, ['no room'])] }, [], []).status).toBe('nothing_to_do');
    expect(outcomeOf('restore', 't', { streams: [stream(1), stream(0, ['no room'])] }, [], []).status).toBe('ready');
    expect(outcomeOf('revert', 'r', { streams: [stream(1), stream(0, ['no room'])] }, [], []).status).toBe('refused');
    expect(outcomeOf('revert', 'r', { streams: [stream(1)] }, [later], []).status).toBe('refused');
    expect(outcomeOf('revert', 'r', { streams: [stream(1)] }, [], [later]).status).toBe('ready');
  });
});
