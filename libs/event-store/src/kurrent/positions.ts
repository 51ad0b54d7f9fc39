import { START as CLIENT_START, type Position, type ReadPosition } from '@kurrent/kurrentdb-client';
import { LogPosition, START } from '../port.js';

/**
 * KurrentDB's $all position is a {commit, prepare} pair ordered as ours is (commit first,
 * then prepare), so the two map one to one. An event written by an implicit transaction
 * (every multi-stream append is one) sits at {p, p}, p being its record's log position.
 */
export function toLogPosition(position: Position): LogPosition {
  return { commit: position.commit, prepare: position.prepare };
}

export function toReadPosition(position: LogPosition): ReadPosition {
  if (position.commit === START.commit && position.prepare === START.prepare) return CLIENT_START;
  return { commit: position.commit, prepare: position.prepare };
}

/**
 * multiStreamAppend answers one number: the commit position of the session, which the server
 * takes from the transaction's last record. That record is the last event written, and an
 * implicitly committed event is read back from $all at {p, p}.
 */
export function positionOfAppend(commitPosition: bigint): LogPosition {
  return { commit: commitPosition, prepare: commitPosition };
}
