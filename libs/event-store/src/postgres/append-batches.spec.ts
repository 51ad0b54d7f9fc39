import { AppendRequest, AppendResult, START, WrongExpectedRevision } from '../port.js';
import { AppendBatches, AppendWriter, BatchOutcome, MAX_BATCH, sharedTransactions } from './append-batches.js';

const append = (stream: string): AppendRequest[] => [{ stream, expectedRevision: -1, events: [{ type: 'Happened', data: {} }] }];
const resultOf = (ordered: readonly AppendRequest[]): AppendResult => ({ position: START, revisions: { [ordered[0].stream]: 0 } });
const streamsOf = (batch: readonly (readonly AppendRequest[])[]) => batch.map((ordered) => ordered[0].stream);

/** A writer that records what it was asked to write and finishes each write when told to. */
function recordingWriter(answer: (stream: string) => 'written' | 'refused' = () => 'written') {
  const writes: { kind: 'alone' | 'together'; streams: string[]; chained?: readonly boolean[]; finish(): void }[] = [];
  let failTogether = false;
  const pending = <T>(kind: 'alone' | 'together', streams: string[], outcome: () => T, chained?: readonly boolean[]) => new Promise<T>((resolve, reject) => {
    writes.push({ kind, streams, chained, finish: () => { try { resolve(outcome()); } catch (error) { reject(error); } } });
  });
  const writer: AppendWriter = {
    alone: (ordered) => pending('alone', streamsOf([ordered]), () => {
      if (answer(ordered[0].stream) === 'refused') throw new WrongExpectedRevision(ordered[0].stream, -1);
      return resultOf(ordered);
    }),
    together: (batch, chained) => pending('together', streamsOf(batch), () => {
      if (failTogether) throw new Error('a projection failed');
      return batch.map((ordered): BatchOutcome => (answer(ordered[0].stream) === 'refused'
        ? { refused: new WrongExpectedRevision(ordered[0].stream, -1) } : { written: resultOf(ordered) }));
    }, chained),
  };
  return { writer, writes, failNextTogether: () => { failTogether = true; } };
}

/** Lets every promise callback queued so far run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('AppendBatches: appends that arrive while another is written share the next transaction', () => {
  it('writes a lone append alone, at once', async () => {
    const { writer, writes } = recordingWriter();
    const batches = new AppendBatches(writer);
    const done = batches.append(append('a'));
    expect(writes.map((w) => [w.kind, w.streams])).toEqual([['alone', ['a']]]);
    writes[0].finish();
    await expect(done).resolves.toEqual(resultOf(append('a')));
  });

  it('writes those that arrived meanwhile together, in arrival order, one write at a time and at most MAX_BATCH per transaction', async () => {
    const { writer, writes } = recordingWriter();
    const batches = new AppendBatches(writer);
    const streams = Array.from({ length: MAX_BATCH + 3 }, (_, i) => `s${i}`);
    const done = [batches.append(append('first')), ...streams.map((s) => batches.append(append(s)))];
    expect(writes).toHaveLength(1);
    writes[0].finish();
    await settled();
    expect(writes.map((w) => [w.kind, w.streams])).toEqual([['alone', ['first']], ['together', streams.slice(0, MAX_BATCH)]]);
    writes[1].finish();
    await settled();
    expect(writes.map((w) => [w.kind, w.streams]).slice(2)).toEqual([['together', streams.slice(MAX_BATCH)]]);
    writes[2].finish();
    const results = await Promise.all(done);
    expect(results.map((r) => Object.keys(r.revisions)[0])).toEqual(['first', ...streams]);
  });

  it('gives each append of a transaction its own outcome: a refused one fails alone', async () => {
    const { writer, writes } = recordingWriter((stream) => (stream === 'moved' ? 'refused' : 'written'));
    const batches = new AppendBatches(writer);
    const first = batches.append(append('first'));
    const [a, moved, b] = ['a', 'moved', 'b'].map((s) => batches.append(append(s)));
    writes[0].finish();
    await settled();
    writes[1].finish();
    await expect(first).resolves.toBeDefined();
    await expect(a).resolves.toEqual(resultOf(append('a')));
    await expect(moved).rejects.toBeInstanceOf(WrongExpectedRevision);
    await expect(b).resolves.toEqual(resultOf(append('b')));
  });

  it('writes the appends of a transaction that failed as a whole again, each in its own transaction and at once, each answered as it alone would be', async () => {
    const { writer, writes, failNextTogether } = recordingWriter((stream) => (stream === 'moved' ? 'refused' : 'written'));
    const batches = new AppendBatches(writer);
    void batches.append(append('first'));
    const outcomes = Promise.allSettled(['a', 'moved', 'b'].map((s) => batches.append(append(s))));
    failNextTogether();
    writes[0].finish();
    await settled();
    writes[1].finish();
    await settled();
    // All three at once, each in its own transaction, not one after the other.
    expect(writes).toHaveLength(5);
    for (let i = 2; i < 5; i++) writes[i].finish();
    const [a, moved, b] = await outcomes;
    expect(a).toEqual({ status: 'fulfilled', value: resultOf(append('a')) });
    expect(moved.status === 'rejected' && moved.reason).toBeInstanceOf(WrongExpectedRevision);
    expect(b).toEqual({ status: 'fulfilled', value: resultOf(append('b')) });
    expect(writes.map((w) => [w.kind, w.streams])).toEqual([
      ['alone', ['first']], ['together', ['a', 'moved', 'b']], ['alone', ['a']], ['alone', ['moved']], ['alone', ['b']],
    ]);
  });

  it('counts for /metrics the transactions shared, the appends written in them and those that fell back', async () => {
    const before = { ...sharedTransactions };
    const { writer, writes, failNextTogether } = recordingWriter((stream) => (stream === 'moved' ? 'refused' : 'written'));
    const batches = new AppendBatches(writer);
    void batches.append(append('first'));
    const answered = Promise.allSettled(['a', 'moved', 'b'].map((s) => batches.append(append(s))));
    writes[0].finish();
    await settled();
    // Meanwhile two more wait: their transaction will fail as a whole.
    const fallen = Promise.allSettled(['c', 'd'].map((s) => batches.append(append(s))));
    writes[1].finish();
    await answered;
    failNextTogether();
    await settled();
    writes[2].finish();
    await settled();
    for (const write of writes.slice(3)) write.finish();
    await fallen;
    // The lone first append is no shared transaction; 'moved' was refused, so not written.
    expect({ together: sharedTransactions.together - before.together, appendsWritten: sharedTransactions.appendsWritten - before.appendsWritten,
      fellBack: sharedTransactions.fellBack - before.fellBack }).toEqual({ together: 1, appendsWritten: 2, fellBack: 1 });
  });

  it('goes on writing after an append alone failed', async () => {
    const { writer, writes } = recordingWriter((stream) => (stream === 'moved' ? 'refused' : 'written'));
    const batches = new AppendBatches(writer);
    const moved = batches.append(append('moved'));
    const later = batches.append(append('later'));
    writes[0].finish();
    await expect(moved).rejects.toBeInstanceOf(WrongExpectedRevision);
    await settled();
    writes[1].finish();
    await expect(later).resolves.toEqual(resultOf(append('later')));
  });
});

describe('AppendBatches: an append resting on another of this process (appendAfter)', () => {
  it('joins the transaction of the one it rests on when that one still waits, marked as resting on an earlier append', async () => {
    const { writer, writes } = recordingWriter();
    const batches = new AppendBatches(writer);
    void batches.append(append('lead'));
    const a = batches.append(append('a'));
    const c = batches.append(append('c'));
    const b = batches.appendAfter([a], append('b'));
    writes[0].finish();
    await settled();
    expect(writes.map((w) => [w.kind, w.streams, w.chained])).toEqual([
      ['alone', ['lead'], undefined], ['together', ['a', 'c', 'b'], [false, false, true]],
    ]);
    writes[1].finish();
    await expect(Promise.all([a, b, c])).resolves.toHaveLength(3);
  });

  it('refuses it, writing nothing, once the one it rests on was refused in the transaction before', async () => {
    const { writer, writes } = recordingWriter((stream) => (stream === 'moved' ? 'refused' : 'written'));
    const batches = new AppendBatches(writer);
    const moved = batches.append(append('moved'));
    const after = batches.appendAfter([moved], append('after'));
    writes[0].finish();
    await expect(moved).rejects.toBeInstanceOf(WrongExpectedRevision);
    await expect(after).rejects.toEqual(new WrongExpectedRevision('after', -1));
    expect(writes.map((w) => w.streams)).toEqual([['moved']]);
  });

  it('writes it alone once the one it rests on is written, when their shared transaction failed as a whole', async () => {
    const { writer, writes, failNextTogether } = recordingWriter();
    const batches = new AppendBatches(writer);
    void batches.append(append('lead'));
    const a = batches.append(append('a'));
    const b = batches.appendAfter([a], append('b'));
    failNextTogether();
    writes[0].finish();
    await settled();
    writes[1].finish();
    await settled();
    // 'a' alone at once; 'b' only once 'a' is written.
    expect(writes.slice(2).map((w) => [w.kind, w.streams])).toEqual([['alone', ['a']]]);
    writes[2].finish();
    await settled();
    expect(writes.slice(3).map((w) => [w.kind, w.streams])).toEqual([['alone', ['b']]]);
    writes[3].finish();
    await expect(b).resolves.toEqual(resultOf(append('b')));
  });

  it('waits, out of the queue, for the one it rests on while that one is written alone, and is then written', async () => {
    const { writer, writes, failNextTogether } = recordingWriter();
    const batches = new AppendBatches(writer);
    void batches.append(append('lead'));
    const a = batches.append(append('a'));
    void batches.append(append('c'));
    writes[0].finish();
    await settled();
    // 'a' and 'c' are being written together; 'b' arrives resting on 'a', and their transaction fails.
    const b = batches.appendAfter([a], append('b'));
    const d = batches.append(append('d'));
    failNextTogether();
    writes[1].finish();
    await settled();
    // 'a' and 'c' alone, and 'd' goes on without waiting for 'b', which waits for 'a'.
    expect(writes.slice(2).map((w) => [w.kind, w.streams])).toEqual([['alone', ['a']], ['alone', ['c']], ['alone', ['d']]]);
    writes[2].finish();
    await settled();
    expect(writes.slice(5).map((w) => [w.kind, w.streams])).toEqual([]);
    writes[4].finish();
    await settled();
    expect(writes.slice(5).map((w) => [w.kind, w.streams])).toEqual([['alone', ['b']]]);
    writes[5].finish();
    await expect(Promise.all([b, d])).resolves.toHaveLength(2);
  });

  it('waits for an append it does not know (given by another path) to be answered', async () => {
    const { writer, writes } = recordingWriter();
    const batches = new AppendBatches(writer);
    let answer!: (result: AppendResult) => void;
    const elsewhere = new Promise<AppendResult>((resolve) => (answer = resolve));
    const after = batches.appendAfter([elsewhere], append('after'));
    await settled();
    expect(writes).toHaveLength(0);
    answer(resultOf(append('x')));
    await settled();
    writes[0].finish();
    await expect(after).resolves.toEqual(resultOf(append('after')));
  });
});
