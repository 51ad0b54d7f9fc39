import { formatPlan } from './undo-format.js';

describe('the plan as the CLI prints it', () => {
  it('names each stream, what it appends and what refuses it, each conflict with its request and user, and what --apply does', () => {
    const lines = formatPlan({
      kind: 'revert', reverted_request_id: 'req-1', status: 'refused', plan_hash: 'h', applied: false, request_id: 'req-2',
      streams: [
        { stream: 'consumer-c', now: { status: 'absent' }, then: { status: 'absent' }, events: [{ type: 'ConsumerRemoved', data: { generation: 2 } }], problems: [] },
        { stream: 'provider-p', now: {}, then: {}, events: [], problems: [] },
        { stream: 'consumer-d', now: {}, then: {}, events: [], problems: ['would over-commit VCPU'] },
      ],
      conflicts: [{ stream: 'consumer-c', revision: 4, type: 'ConsumerAllocationsReplaced', request_id: 'req-9', user_id: 'bob', time: 'T' }],
      forced: [],
    });
    expect(lines[0]).toBe('revert of request req-1: refused (plan hash h)');
    expect(lines).toContain('    + ConsumerRemoved {"generation":2}');
    expect(lines).toContain('  provider-p: as it was, nothing to append');
    expect(lines).toContain('    REFUSED: would over-commit VCPU');
    expect(lines).toContain('  CONFLICT: consumer-c revision 4 (ConsumerAllocationsReplaced) by request req-9, user bob, at T');
    expect(lines.at(-1)).toBe('  CONFLICT: consumer-c revision 4 (ConsumerAllocationsReplaced) by request req-9, user bob, at T');
  });

  it('says a ready plan was not applied, and an applied one under which request', () => {
    const base = { kind: 'restore', as_of: 'T', plan_hash: 'h', request_id: 'req-3', streams: [], conflicts: [], forced: [] };
    expect(formatPlan({ ...base, status: 'ready', applied: false }).at(-1)).toBe('dry run: nothing appended; --apply appends exactly this plan');
    expect(formatPlan({ ...base, status: 'ready', applied: true })).toEqual(['restore to T: ready, applied (plan hash h)', 'applied as request req-3']);
  });
});
