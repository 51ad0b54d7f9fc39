import { FeedSlots } from './feed-slots.js';

describe('the feed slots', () => {
  it('refuses a caller past its own limit while others still get one', () => {
    const slots = new FeedSlots({ total: 10, perPrincipal: 2 });
    expect(slots.take('a')).not.toBeNull();
    expect(slots.take('a')).not.toBeNull();
    expect(slots.take('a')).toBeNull();
    expect(slots.take('b')).not.toBeNull();
    expect(slots.size).toBe(3);
  });

  it('refuses everyone past the total, and takes a slot back once, however often it is released', () => {
    const slots = new FeedSlots({ total: 2, perPrincipal: 2 });
    const first = slots.take('a')!;
    expect(slots.take('b')).not.toBeNull();
    expect(slots.take('c')).toBeNull();
    first();
    first();
    expect(slots.size).toBe(1);
    expect(slots.take('c')).not.toBeNull();
    expect(slots.take('d')).toBeNull();
  });
});
