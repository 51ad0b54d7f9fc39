/** What one consumer holds of each resource class, whichever providers it is spread over. */
export type Holding = Readonly<Record<string, number>>;

/** Who a consumer's usage is charged to, as its last ConsumerAllocationsReplaced says. */
export interface Claimant {
  readonly projectId: string;
  readonly userId: string;
  /** null: written below 1.38 without a type. */
  readonly consumerType: string | null;
}

export interface Claim extends Claimant {
  readonly holding: Holding;
}

/**
 * A series' user or consumer type column holding this counts every user (type) of the
 * project. Neither can be a real value: upstream requires user ids of at least one character,
 * and consumer types match ^[A-Z0-9_]+$.
 */
export const EVERY = '';
/** Consumers without a type are counted, and asked for, as upstream's GET /usages names them. */
const UNKNOWN_CONSUMER_TYPE = 'unknown';

/** One usage series: a project's (or one user's, or one consumer type's) units of one class. */
interface SeriesKey {
  readonly projectId: string;
  readonly userId: string;
  readonly consumerType: string;
  readonly resourceClass: string;
}

export interface SeriesChange extends SeriesKey {
  readonly delta: number;
}

export function holdingOf(allocations: Readonly<Record<string, Readonly<Record<string, number>>>>): Holding {
  const holding: Record<string, number> = {};
  for (const resources of Object.values(allocations)) {
    for (const [rc, used] of Object.entries(resources)) holding[rc] = (holding[rc] ?? 0) + used;
  }
  return holding;
}

/**
 * The four series a consumer counts in. Peaks do not add up (the peak of a project is not the
 * sum of its users' peaks), so each way of asking is a series of its own.
 */
export function scopesOf(claimant: Claimant): readonly (readonly [userId: string, consumerType: string])[] {
  const type = claimant.consumerType ?? UNKNOWN_CONSUMER_TYPE;
  return [[EVERY, EVERY], [claimant.userId, EVERY], [EVERY, type], [claimant.userId, type]];
}

const seriesId = (key: SeriesKey) => JSON.stringify([key.projectId, key.userId, key.consumerType, key.resourceClass]);

/**
 * How every series moves when a consumer goes from `before` to `after` (null: holds nothing,
 * or is gone). A consumer may change project, user or type with a claim, so the old holding
 * leaves the old series and the new one enters the new series. Sorted by series so every
 * writer locks rows in the same order; series that do not move are left out.
 */
export function seriesChanges(before: Claim | null, after: Claim | null): SeriesChange[] {
  // Built on every claim: each series' change is made once and summed in place, not spread anew.
  const deltas = new Map<string, SeriesKey & { delta: number }>();
  const add = (claim: Claim | null, sign: 1 | -1) => {
    if (!claim) return;
    const { projectId } = claim;
    for (const [userId, consumerType] of scopesOf(claim)) {
      for (const [resourceClass, used] of Object.entries(claim.holding)) {
        const id = seriesId({ projectId, userId, consumerType, resourceClass });
        const change = deltas.get(id);
        if (change) change.delta += sign * used;
        else deltas.set(id, { projectId, userId, consumerType, resourceClass, delta: sign * used });
      }
    }
  };
  add(before, -1);
  add(after, 1);
  return [...deltas.entries()]
    .filter(([, change]) => change.delta !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, change]) => change);
}

/** One claimant's change per class at one moment: a row of rm_usage_moves. */
export interface Move {
  readonly projectId: string;
  readonly userId: string;
  /** As the series name it (UNKNOWN_CONSUMER_TYPE for none). */
  readonly consumerType: string;
  readonly deltas: Readonly<Record<string, number>>;
}

/**
 * What each claimant gained or released when a consumer went from `before` to `after`: one
 * move, or two when the consumer changed project, user or type. A series' change is the sum of
 * the moves of the claimants it counts (scopesOf), so these rows are all a peak needs.
 */
export function movesOf(before: Claim | null, after: Claim | null): Move[] {
  const moves: Move[] = [];
  const side = (claim: Claim | null, sign: 1 | -1) => {
    if (!claim) return;
    const consumerType = claim.consumerType ?? UNKNOWN_CONSUMER_TYPE;
    let move = moves.find((m) => m.projectId === claim.projectId && m.userId === claim.userId && m.consumerType === consumerType);
    if (!move) moves.push((move = { projectId: claim.projectId, userId: claim.userId, consumerType, deltas: {} }));
    const deltas = move.deltas as Record<string, number>;
    for (const [rc, used] of Object.entries(claim.holding)) deltas[rc] = (deltas[rc] ?? 0) + sign * used;
  };
  side(before, -1);
  side(after, 1);
  return moves.flatMap((move) => {
    const deltas = Object.fromEntries(Object.entries(move.deltas).filter(([, delta]) => delta !== 0));
    return Object.keys(deltas).length > 0 ? [{ ...move, deltas }] : [];
  });
}
