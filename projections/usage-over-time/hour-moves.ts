import { HOUR_MS, LevelChange, summarize } from './hour-summary.js';
import { Move, scopesOf } from './usage-series.js';

/** Joins a series' or a move's key parts; no id, type or class holds this character. */
const SEP = '\u001f';

export interface MoveRow extends Move {
  readonly at: number;
}

/** An hour left behind by the log, as plain data another thread can be handed (usage-rows.ts turns it into rows). */
export interface ClosedHour {
  readonly hour: number;
  readonly moves: readonly MoveRow[];
}

/**
 * One UTC hour's moves, and the hour rows they make. An hour row is a function of the moves
 * alone: a series moves at an instant by the sum of the moves of the claimants it counts, an
 * instant where that sum is 0 moved nothing (a consumer passed from one user to another of the
 * project), and a series with no instant left has no row. The projection keeps to this as it
 * applies events one by one.
 */
export class HourMoves {
  private readonly moves = new Map<string, MoveRow>();

  constructor(readonly hour: number) {}

  /** An hour's moves as moves() gave them: each claimant and instant once already. */
  static of({ hour, moves }: ClosedHour): HourMoves {
    const inHour = new HourMoves(hour);
    for (const move of moves) inHour.add(move, move.at);
    return inHour;
  }

  closed(): ClosedHour {
    return { hour: this.hour, moves: [...this.moves.values()] };
  }

  /** A claimant's move; two at one instant are one row, their changes added. */
  add(move: Move, at: number): void {
    const key = move.projectId + SEP + move.userId + SEP + move.consumerType + SEP + at;
    const known = this.moves.get(key);
    if (!known) {
      this.moves.set(key, { ...move, at });
      return;
    }
    const deltas = { ...known.deltas };
    for (const rc in move.deltas) deltas[rc] = (deltas[rc] ?? 0) + move.deltas[rc];
    this.moves.set(key, { ...known, deltas });
  }

  rows(): unknown[][] {
    return [...this.moves.values()].map((m) => [m.projectId, m.userId, m.consumerType, new Date(m.at), m.deltas]);
  }

  hourRows(): unknown[][] {
    // Scope, then class: a move's four scopes are looked up once, not once per class.
    const scopes = new Map<string, Map<string, SeriesInHour>>();
    for (const move of this.moves.values()) {
      for (const [userId, consumerType] of scopesOf(move)) {
        const scopeKey = move.projectId + SEP + userId + SEP + consumerType;
        let byClass = scopes.get(scopeKey);
        if (!byClass) scopes.set(scopeKey, (byClass = new Map()));
        for (const rc in move.deltas) {
          const known = byClass.get(rc);
          if (known) addPoint(known.points, move.at, move.deltas[rc]);
          else byClass.set(rc, { key: [move.projectId, userId, consumerType, rc], points: [move.at, move.deltas[rc]] });
        }
      }
    }
    const series = [...scopes.values()].flatMap((byClass) => [...byClass.values()]);
    const rows: unknown[][] = [];
    const start = new Date(this.hour);
    for (const { key, points } of series) {
      const s = summarizePoints(this.hour, points);
      if (s) rows.push([key[0], key[1], key[2], key[3], start, s.net, s.unitMs, s.peakAboveStart, new Date(s.lastChangeAt), s.lastChangeNet]);
    }
    return rows;
  }
}

/** A series' instants in one hour, flat: at, delta, at, delta... (mostly one or two). */
interface SeriesInHour {
  readonly key: readonly [string, string, string, string];
  readonly points: number[];
}

function addPoint(points: number[], at: number, delta: number): void {
  for (let i = 0; i < points.length; i += 2) {
    if (points[i] === at) {
      points[i + 1] += delta;
      return;
    }
  }
  points.push(at, delta);
}

interface SeriesSummary { net: number; unitMs: string; peakAboveStart: number; lastChangeAt: number; lastChangeNet: number }

/** hour-summary.ts's summarize over the instants that moved the series, in plain numbers while they are exact. */
function summarizePoints(hour: number, points: number[]): SeriesSummary | null {
  const changes: LevelChange[] = [];
  let ordered = true;
  for (let i = 0; i < points.length; i += 2) {
    if (points[i + 1] === 0) continue;
    if (changes.length > 0 && points[i] < changes[changes.length - 1].at) ordered = false;
    changes.push({ at: points[i], delta: points[i + 1] });
  }
  if (changes.length === 0) return null;
  if (!ordered) changes.sort((a, b) => a.at - b.at);
  let net = 0, unitMs = 0, exact = true, peak = changes[0].at > hour ? 0 : -Infinity;
  for (const { at, delta } of changes) {
    const product = delta * (hour + HOUR_MS - at);
    net += delta;
    unitMs += product;
    exact &&= Number.isSafeInteger(product) && Number.isSafeInteger(unitMs);
    peak = Math.max(peak, net);
  }
  const { at: last, delta: lastNet } = changes[changes.length - 1];
  if (exact) return { net, unitMs: String(unitMs), peakAboveStart: peak, lastChangeAt: last, lastChangeNet: lastNet };
  const s = summarize(hour, changes);
  return { net: s.net, unitMs: s.unitMs.toString(), peakAboveStart: s.peakAboveStart, lastChangeAt: last, lastChangeNet: lastNet };
}
