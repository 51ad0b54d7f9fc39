import { GuessRecord } from './guess-record.js';

describe('GuessRecord', () => {
  it('keeps guessing while guesses pay off, and while few miss', () => {
    const record = new GuessRecord();
    for (let i = 0; i < 100; i++) record.record(i % 20 === 0);
    expect(record.worthGuessing()).toBe(true);
  });

  it('reads first once many guesses missed, still probing one command in 20, and guesses again once probes pay off', () => {
    const record = new GuessRecord();
    for (let i = 0; i < 10; i++) record.record(true);
    const guesses = Array.from({ length: 40 }, () => record.worthGuessing());
    expect(guesses.filter(Boolean)).toHaveLength(2);
    for (let i = 0; i < 60; i++) record.record(false);
    expect(record.worthGuessing()).toBe(true);
  });
});
