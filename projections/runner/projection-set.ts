import { comparePositions, type LogPosition } from '#event-store/index.js';

interface Handling {
  readonly name: string;
  readonly handles: readonly string[];
}

/**
 * Projections in their registered order, each with the events it handles. Inline, asynchronous
 * and in-memory runs all apply through `handled`, so order and filtering are one rule: projection
 * by projection, so that rows many writers share (a project's usage hours), which the last
 * projection locks, are held only until the commit.
 */
export class ProjectionSet<P extends Handling> {
  private readonly entries: readonly { readonly projection: P; readonly types: ReadonlySet<string> }[];

  constructor(readonly projections: readonly P[]) {
    this.entries = projections.map((projection) => ({ projection, types: new Set(projection.handles) }));
  }

  get names(): string[] {
    return this.projections.map((projection) => projection.name);
  }

  /**
   * Each projection with each event it handles, in order; with checkpoints, only the events past
   * a projection's own, so a batch is applied exactly once even where checkpoints differ.
   */
  *handled<E extends { readonly type: string; readonly position?: LogPosition }>(
    events: readonly E[], checkpoints?: ReadonlyMap<string, LogPosition>,
  ): Generator<readonly [P, E]> {
    for (const { projection, types } of this.entries) {
      const from = checkpoints?.get(projection.name);
      for (const event of events) {
        if (!types.has(event.type)) continue;
        if (from && event.position && comparePositions(event.position, from) <= 0) continue;
        yield [projection, event];
      }
    }
  }
}
