import { debugRequested, errorText } from './error-text.js';

const failure = () => {
  const cause = new TypeError('Invalid URL postgres://u:p/w@d@db:5432/placement');
  return new Error('cannot read the database at postgres://u:p/w@d@db:5432/placement', { cause });
};

describe('errors as the admin commands print them', () => {
  it('gives the messages and their causes, without a stack or a password', () => {
    const text = errorText(failure(), false);
    expect(text).toBe('cannot read the database at postgres://u:***@db:5432/placement\ncaused by: TypeError: Invalid URL postgres://u:***@db:5432/placement');
    expect(text).not.toMatch(/\n\s+at /);
    expect(errorText('a string thrown', false)).toBe('a string thrown');
  });

  it('gives the stacks when asked, still without a password', () => {
    const text = errorText(failure(), true);
    expect(text).toMatch(/^Error: cannot read the database at postgres:\/\/u:\*\*\*@db:5432\/placement\n\s+at /);
    expect(text).toMatch(/caused by: TypeError: Invalid URL postgres:\/\/u:\*\*\*@db:5432\/placement\n\s+at /);
    expect(text).not.toContain('p/w');
  });

  it('is asked for by --debug or a debug LOG_LEVEL', () => {
    expect(debugRequested(['upgrade', 'check'], {})).toBe(false);
    expect(debugRequested(['upgrade', 'check', '--debug'], {})).toBe(true);
    expect(debugRequested([], { LOG_LEVEL: 'DEBUG' })).toBe(true);
    expect(debugRequested([], { LOG_LEVEL: 'trace' })).toBe(true);
    expect(debugRequested([], { LOG_LEVEL: 'info' })).toBe(false);
  });
});
