import { RecentlyUsed } from './recently-used.js';

describe('RecentlyUsed', () => {
  it('keeps at most its capacity, dropping the entry least recently read or written', () => {
    const recent = new RecentlyUsed<string, number>(2);
    recent.set('a', 1);
    recent.set('b', 2);
    expect(recent.get('a')).toBe(1);
    recent.set('c', 3);
    // 'b' was the least recently used: 'a' was read after it was written.
    expect(recent.get('b')).toBeUndefined();
    expect(recent.get('a')).toBe(1);
    expect(recent.get('c')).toBe(3);
  });

  it('replaces an entry written again without dropping another', () => {
    const recent = new RecentlyUsed<string, number>(2);
    recent.set('a', 1);
    recent.set('b', 2);
    recent.set('a', 10);
    expect(recent.get('a')).toBe(10);
    expect(recent.get('b')).toBe(2);
  });

  it('forgets a deleted entry at once, and counts what it holds', () => {
    const recent = new RecentlyUsed<string, number>(2);
    recent.set('a', 1);
    recent.set('b', 2);
    recent.delete('a');
    expect(recent.size).toBe(1);
    expect(recent.get('a')).toBeUndefined();
    recent.set('c', 3);
    expect(recent.get('b')).toBe(2); // room was made by the delete, so nothing else went
  });
});
