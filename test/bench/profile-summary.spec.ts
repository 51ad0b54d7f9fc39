import { CpuProfile, profileLines, summarizeWindow } from './profile-summary.js';

const frame = (id: number, functionName: string, url = '', lineNumber = 0) => ({ id, callFrame: { functionName, url, lineNumber } });

/** Samples at 1 ms steps from t=1000 µs: search 3 ms, GC 1 ms, idle 2 ms, a socket write 1 ms, then search again. */
const PROFILE: CpuProfile = {
  nodes: [
    frame(1, '(root)'), frame(2, '(idle)'), frame(3, '(garbage collector)'),
    frame(4, 'searchCandidates', 'file:///srv/app/dist/libs/placement/src/candidates/search/search.js', 37),
    frame(5, 'writev'), frame(6, 'query', 'file:///srv/app/node_modules/pg/lib/client.js', 666),
  ],
  startTime: 1000,
  samples: [4, 4, 4, 3, 2, 2, 5, 6, 4],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};

describe('summarizeWindow', () => {
  it('counts self time per function inside the window only, idle apart', () => {
    // Samples stamped 2000..10000 µs; the window takes 2000..8000, not the last two.
    const summary = summarizeWindow(PROFILE, 2000, 8000, 10);
    expect(summary.sampledMs).toBe(7);
    expect(summary.idleMs).toBe(2);
    expect(summary.functions).toEqual([
      { name: 'searchCandidates@libs/placement/src/candidates/search/search.js:38', ms: 3, share: 3 / 5 },
      { name: '(garbage collector)', ms: 1, share: 1 / 5 },
      { name: 'writev (native)', ms: 1, share: 1 / 5 },
    ]);
  });

  it('names packages by their name and keeps the top N', () => {
    const summary = summarizeWindow(PROFILE, 0, 20_000, 2);
    expect(summary.functions.map((fn) => fn.name)).toEqual(['searchCandidates@libs/placement/src/candidates/search/search.js:38', '(garbage collector)']);
    expect(summarizeWindow(PROFILE, 9000, 9000, 5).functions).toEqual([{ name: 'query@pg:667', ms: 1, share: 1 }]);
  });

  it('prints shares of busy time and says what a write\'s time includes', () => {
    const text = profileLines('claims', summarizeWindow(PROFILE, 2000, 8000, 10));
    expect(text).toContain('profile, claims: 5 ms busy of 7 ms sampled');
    expect(text).toContain(' 60.0%      3 ms  searchCandidates@');
    expect(text).toMatch(/writev \(native\) {2}\(a write; includes time preempted by whom it woke\)/);
  });
});
