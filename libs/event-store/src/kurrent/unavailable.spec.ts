import { CommitOutcomeUnknown } from '../postgres/commit-outcome.js';
import { appendOutcome, kurrentUnavailable } from './unavailable.js';

describe("an append KurrentDB's client could not complete", () => {
  it('stays "unavailable" (not applied) when the call never left: no connection', () => {
    const refused = Object.assign(new Error('14 UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:2113.'), { code: 14 });
    expect(appendOutcome(refused)).toBe(refused);
  });

  it('is "outcome unknown" when the call may have reached the server: a deadline, a connection dropped mid-call', () => {
    expect(appendOutcome(Object.assign(new Error('deadline'), { type: 'deadline-exceeded' }))).toBeInstanceOf(CommitOutcomeUnknown);
    expect(appendOutcome(Object.assign(new Error('14 UNAVAILABLE: Connection dropped'), { code: 14 }))).toBeInstanceOf(CommitOutcomeUnknown);
  });

  it('leaves every other error alone', () => {
    const conflict = Object.assign(new Error('wrong expected version'), { type: 'wrong-expected-version' });
    expect(appendOutcome(conflict)).toBe(conflict);
    expect(kurrentUnavailable(new Error('Connection terminated unexpectedly'))).toBe(false);
  });
});
