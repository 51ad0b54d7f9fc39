import { outcomeInDoubt } from './commit-outcome.js';

/** As node-postgres builds an ErrorResponse: the SQLSTATE and the server's severity. */
const serverError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });

describe('which failures of a COMMIT leave its outcome in doubt', () => {
  it('a lost socket, and the errors that end a connection (a backend terminated while its commit waited for the standby)', () => {
    expect(outcomeInDoubt(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(outcomeInDoubt(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(outcomeInDoubt(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(true);
    expect(outcomeInDoubt(serverError('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(outcomeInDoubt(serverError('08006', 'connection failure'))).toBe(true);
  });

  it('not an ordinary error PostgreSQL answered: the transaction was rolled back', () => {
    expect(outcomeInDoubt(serverError('40001', 'could not serialize access'))).toBe(false);
    expect(outcomeInDoubt(serverError('23505', 'duplicate key value'))).toBe(false);
  });
});
