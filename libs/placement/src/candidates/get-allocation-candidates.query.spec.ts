import type { CandidateIndexService } from './candidate-index.service.js';
import { settle, ticking } from '#test/support/fake-clock-steps.js';
import { emptyView } from './candidate-view.js';
import { GetAllocationCandidates, GetAllocationCandidatesHandler } from './get-allocation-candidates.query.js';
import { LOOP_TURNS } from './search/loop-turns.js';
import { candidateRequest, group } from './search/request-builder.js';

describe('the candidates handler pacing a long answer', () => {
  // As in steps.spec: each step moves the fake clock by its own time; pauses stay real.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  const STEPS = 20;
  /** A presentation of STEPS steps of 2 ms each on the fake clock. */
  const presenting = (log: string[]) => ticking('presented', STEPS, 2, log);
  /** Enough turns of the loop for every slice of a presentation that waits for no timer. */
  const TURNS = 100;
  /** An answer from a handler whose index says whether a write waits for the view, presented in the steps above. */
  const answer = (writeWaiting: boolean, log: string[]) => {
    const view = emptyView();
    const candidates = { writeWaiting, read: <T>(work: (v: typeof view) => Promise<T>) => work(view) } as unknown as CandidateIndexService;
    const handler = new GetAllocationCandidatesHandler(candidates, { randomize: false, maxCandidates: null });
    const request = candidateRequest([group('', { resources: [['VCPU', 1]] })]);
    return handler.execute(new GetAllocationCandidates(request, (_result, _reuse, run) => run(presenting(log))));
  };

  /** `work` while its own request and one more are being answered. */
  const withAnotherRequest = async (work: () => Promise<void>) => {
    LOOP_TURNS.begin();
    LOOP_TURNS.begin();
    try {
      await work();
    } finally {
      LOOP_TURNS.end();
      LOOP_TURNS.end();
    }
    expect([LOOP_TURNS.answeringNow, LOOP_TURNS.longNow]).toEqual([0, 0]);
  };

  it('lets the other requests in progress go first once its answer has run long', () => withAnotherRequest(async () => {
    const log: string[] = [];
    const answered = answer(false, log);
    await settle(TURNS);
    // Long after 10 ms of slices: it waits 16 ms before each next one.
    expect(log).toHaveLength(5);
    await jest.advanceTimersByTimeAsync(16);
    await settle(TURNS);
    expect(log).toHaveLength(6);
    // One slice per wait, and a wait after its last: each wait is set after the real turn that follows a slice.
    for (let waits = 6; waits <= STEPS; waits++) {
      await jest.advanceTimersByTimeAsync(16);
      await settle(TURNS);
    }
    expect(log).toHaveLength(STEPS);
    await expect(answered).resolves.toBe('presented done');
  }));

  it('waits for nobody while a write waits for the view it reads', () => withAnotherRequest(async () => {
    const log: string[] = [];
    const answered = answer(true, log);
    // Were it to wait for a timer, nothing would move the clock: only its own steps do.
    await settle(TURNS);
    expect(log).toHaveLength(STEPS);
    await expect(answered).resolves.toBe('presented done');
  }));
});
