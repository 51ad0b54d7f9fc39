import { LeaderRole, LeaderSignal, nextRole } from './leader-role.js';

const run = (signals: LeaderSignal[], from: LeaderRole = 'connecting') => signals.reduce(nextRole, from);

describe('the projector leader role', () => {
  it('connects, stands by while another holds the lock, then leads once granted', () => {
    expect(run(['connected'])).toBe('standby');
    expect(run(['connected', 'lock-refused', 'lock-refused'])).toBe('standby');
    expect(run(['connected', 'lock-refused', 'lock-granted'])).toBe('leading');
  });

  it('goes back to connecting when its connection is lost, whatever it was (the lock went with the session)', () => {
    expect(run(['connected', 'lock-granted', 'connection-lost'])).toBe('connecting');
    expect(run(['connected', 'connection-lost'])).toBe('connecting');
    expect(run(['connected', 'lock-granted', 'connection-lost', 'connected', 'lock-refused'])).toBe('standby');
  });

  it('cannot lead without a connection', () => {
    expect(run(['lock-granted'])).toBe('connecting');
  });

  it('stays leader until its connection is lost or it stops', () => {
    expect(run(['lock-refused', 'connected', 'lock-granted'], 'connecting')).toBe('leading');
    expect(nextRole('leading', 'lock-refused')).toBe('leading');
  });

  it('stays stopped once stopped', () => {
    expect(run(['connected', 'lock-granted', 'stop', 'connection-lost', 'connected'])).toBe('stopped');
  });
});
