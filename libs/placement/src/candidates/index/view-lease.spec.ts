import { ViewLease } from './view-lease.js';

// On jest's fake clock: which reader ends first is the timers' order, never a busy machine's
// preemption between two of them (a real clock let read 2's 5 ms outlast read 1's 20 ms in CI).
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const elapse = (ms: number) => jest.advanceTimersByTimeAsync(ms);

describe('the view lease', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('lets readers share it and holds a write until the last reader is done', async () => {
    const lease = new ViewLease();
    const seen: string[] = [];
    const reading = lease.read(async () => { seen.push('read 1 starts'); await later(20); seen.push('read 1 ends'); });
    const alsoReading = lease.read(async () => { seen.push('read 2 starts'); await later(5); seen.push('read 2 ends'); });
    await elapse(1);
    const writing = lease.write(() => seen.push('write'));
    await elapse(20);
    await Promise.all([reading, alsoReading, writing]);
    expect(seen).toEqual(['read 1 starts', 'read 2 starts', 'read 2 ends', 'read 1 ends', 'write']);
  });

  it('lets a waiting write go before readers that came after it', async () => {
    const lease = new ViewLease();
    const seen: string[] = [];
    const first = lease.read(async () => { await later(10); seen.push('first read'); });
    await elapse(1);
    const writing = lease.write(() => seen.push('write'));
    const second = lease.read(async () => { seen.push('second read'); });
    await elapse(20);
    await Promise.all([first, writing, second]);
    expect(seen).toEqual(['first read', 'write', 'second read']);
  });

  it('lets a write that only moves usage in while a search that allows it pauses, and holds every other write for it', async () => {
    const lease = new ViewLease();
    const seen: string[] = [];
    const searching = lease.read(async () => { await later(20); seen.push('search ends'); }, true);
    await elapse(1);
    const claim = lease.write(() => seen.push('claim'), true);
    const provider = lease.write(() => seen.push('provider created'));
    await elapse(20);
    await Promise.all([searching, claim, provider]);
    expect(seen).toEqual(['claim', 'search ends', 'provider created']);
  });

  it('says a write waits, for as long as it does, so that a long search does not pace itself meanwhile', async () => {
    const lease = new ViewLease();
    let waitedDuring = false;
    const searching = lease.read(async () => { await later(10); waitedDuring = lease.writeWaiting; }, true);
    await elapse(1);
    expect(lease.writeWaiting).toBe(false);
    const provider = lease.write(() => undefined);
    expect(lease.writeWaiting).toBe(true);
    await elapse(20);
    await Promise.all([searching, provider]);
    expect(waitedDuring).toBe(true);
    expect(lease.writeWaiting).toBe(false);
  });

  it('holds even a usage write for a reader that does not let it in (a snapshot being encoded)', async () => {
    const lease = new ViewLease();
    const seen: string[] = [];
    const encoding = lease.read(async () => { await later(10); seen.push('snapshot encoded'); });
    await elapse(1);
    const claim = lease.write(() => seen.push('claim'), true);
    await elapse(20);
    await Promise.all([encoding, claim]);
    expect(seen).toEqual(['snapshot encoded', 'claim']);
  });

  it('gives the lease back when the work fails', async () => {
    const lease = new ViewLease();
    await expect(lease.read(async () => { throw new Error('no'); })).rejects.toThrow('no');
    await expect(lease.write(() => { throw new Error('nor'); })).rejects.toThrow('nor');
    await elapse(1);
    expect(lease.free).toBe(true);
  });
});
