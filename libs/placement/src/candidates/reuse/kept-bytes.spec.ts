import { KeptBytes } from './kept-bytes.js';
import { ReplyBuffers } from './reply-buffers.js';
import { ReuseBudget } from './reuse-budget.js';

const bytes = (n: number) => Buffer.alloc(n, 1);

describe('kept bytes', () => {
  it('give a piece back while its owner\'s stamp and the answer\'s shape are the ones it was made for', () => {
    const kept = new KeptBytes(new ReuseBudget(1000));
    const node = {};
    const piece = bytes(10);
    kept.keep(node, 'summary', 'shape-a', 7, piece);
    expect(kept.get(node, 'summary', 'shape-a', 7)).toBe(piece);
    expect(kept.get(node, 'summary', 'shape-a', 8)).toBeUndefined();
    expect(kept.get(node, 'summary', 'shape-b', 7)).toBeUndefined();
    expect(kept.get(node, 'body', 'shape-a', 7)).toBeUndefined();
  });

  it('drop the oldest owners once the budget is over, and count each piece once', () => {
    const budget = new ReuseBudget(100);
    const kept = new KeptBytes(budget);
    const owners = [{}, {}, {}];
    owners.forEach((owner) => kept.keep(owner, 'summary', 's', 1, bytes(40)));
    expect(kept.get(owners[0], 'summary', 's', 1)).toBeUndefined();
    expect(kept.get(owners[2], 'summary', 's', 1)).toBeDefined();
    expect(budget.used).toBe(80);
    kept.keep(owners[2], 'summary', 's', 2, bytes(50));
    expect(budget.used).toBe(90);
  });

  it('keep nothing that cannot fit at all', () => {
    const budget = new ReuseBudget(100);
    const kept = new KeptBytes(budget);
    const owner = {};
    kept.keep(owner, 'body', 's', 1, bytes(150));
    expect(kept.get(owner, 'body', 's', 1)).toBeUndefined();
    expect(budget.used).toBe(0);
  });

  it('share one budget with the idle reply buffers, which go first', () => {
    const budget = new ReuseBudget(1_000_000);
    const buffers = new ReplyBuffers(budget);
    const kept = new KeptBytes(budget);
    const owner = {};
    kept.keep(owner, 'body', 's', 1, bytes(500_000));
    buffers.giveBack(buffers.take(400_000)!);
    expect(budget.used).toBe(900_000);
    kept.keep({}, 'summary', 's', 1, bytes(200_000));
    // Over by 100,000: the idle buffer went, the kept bytes stayed.
    expect(budget.used).toBe(700_000);
    expect(kept.get(owner, 'body', 's', 1)).toBeDefined();
  });
});
