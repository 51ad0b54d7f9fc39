import { PassThrough } from 'node:stream';
import { readBatches } from './readable-batches.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('readBatches', () => {
  it('hands over what is buffered in batches of at most max, in order', async () => {
    const stream = new PassThrough({ objectMode: true });
    for (let i = 1; i <= 5; i++) stream.write(i);
    stream.end();
    const batches: number[][] = [];
    for await (const batch of readBatches<number>(stream, 2)) batches.push(batch);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('waits for items that arrive later, and ends with the stream', async () => {
    const stream = new PassThrough({ objectMode: true });
    const batches: number[][] = [];
    const reading = (async () => { for await (const batch of readBatches<number>(stream, 10)) batches.push(batch); })();
    await tick();
    expect(batches).toEqual([]);
    stream.write(1);
    await tick();
    stream.write(2);
    stream.write(3);
    await tick();
    stream.end();
    await reading;
    expect(batches.flat()).toEqual([1, 2, 3]);
  });

  it('rethrows an error emitted without destroying the stream', async () => {
    const stream = new PassThrough({ objectMode: true });
    const seen: number[] = [];
    const reading = (async () => { for await (const batch of readBatches<number>(stream, 10)) seen.push(...batch); })();
    stream.write(1);
    await tick();
    stream.emit('error', new Error('connection lost'));
    await expect(reading).rejects.toThrow('connection lost');
    expect(seen).toEqual([1]);
  });

  it('stops when the stream is destroyed', async () => {
    const stream = new PassThrough({ objectMode: true });
    const reading = (async () => { for await (const _ of readBatches<number>(stream, 10)) void _; })();
    await tick();
    stream.destroy();
    await expect(reading).resolves.toBeUndefined();
  });

  it('takes its listeners away when done', async () => {
    const stream = new PassThrough({ objectMode: true });
    stream.end();
    for await (const _ of readBatches<number>(stream, 10)) void _;
    expect(stream.listenerCount('readable') + stream.listenerCount('error') + stream.listenerCount('close')).toBe(0);
  });
});
