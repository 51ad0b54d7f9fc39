/**
 * The projector's role. Only the holder of the session advisory lock projects; its dedicated
 * connection also carries every batch, so a leader whose connection died can no longer commit.
 */
export type LeaderRole = 'connecting' | 'standby' | 'leading' | 'stopped';

export type LeaderSignal =
  | 'connected'        // the dedicated connection is open
  | 'lock-granted'     // pg_try_advisory_lock said yes
  | 'lock-refused'     // another session holds it
  | 'connection-lost'  // a query on the dedicated connection failed, or it closed
  | 'stop';

export function nextRole(role: LeaderRole, signal: LeaderSignal): LeaderRole {
  if (role === 'stopped' || signal === 'stop') return 'stopped';
  if (signal === 'connection-lost') return 'connecting';
  switch (role) {
    case 'connecting':
      return signal === 'connected' ? 'standby' : role;
    case 'standby':
      return signal === 'lock-granted' ? 'leading' : 'standby';
    case 'leading':
      // A session lock cannot be lost while its connection lives: nothing else demotes a leader.
      return 'leading';
  }
}
