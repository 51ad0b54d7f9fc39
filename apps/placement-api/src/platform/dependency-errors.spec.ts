import { CommitOutcomeUnknown } from '#event-store/index.js';
import { databaseFailure } from './dependency-errors.js';

describe('database failures as answers', () => {
  it('answers a write whose COMMIT was cut off, outcome unknown, with a 503 that says it may stand and how to check', () => {
    const lost = new Error('Connection terminated unexpectedly');
    const answer = databaseFailure(new CommitOutcomeUnknown(lost))!;
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('2');
    expect(answer.detail).toMatch(/outcome of this write is unknown/);
    expect(answer.detail).toMatch(/\/ledger\/audit\/request\/\{request_id\}/);
  });

  it('answers a connection lost before anything was committed as the plain 503', () => {
    const answer = databaseFailure(new Error('Connection terminated unexpectedly'))!;
    expect(answer.status).toBe(503);
    expect(answer.detail).toBe('The database is unavailable; retry later.');
  });
});
