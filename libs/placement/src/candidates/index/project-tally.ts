/** One consumer's set: provider uuid -> resource class -> units. */
type ConsumerSet = Readonly<Record<string, Readonly<Record<string, number>>>>;

interface Held {
  readonly project: string;
  readonly totals: ReadonlyMap<string, number>;
}

/**
 * What each project's consumers hold per resource class, kept up to date from the consumer
 * streams (every ConsumerAllocationsReplaced carries the whole set and its project), so that
 * GET /metrics' placement_project_usage costs projects x classes, not one look at every
 * allocation, and needs no SQL.
 */
export class ProjectTally {
  private readonly consumers = new Map<string, Held>();
  private readonly projects = new Map<string, Map<string, number>>();

  /** The consumer now holds `allocations`, charged to `project`. */
  set(consumer: string, project: string, allocations: ConsumerSet): void {
    this.delete(consumer);
    const totals = new Map<string, number>();
    for (const resources of Object.values(allocations)) {
      for (const [resourceClass, used] of Object.entries(resources)) totals.set(resourceClass, (totals.get(resourceClass) ?? 0) + used);
    }
    this.consumers.set(consumer, { project, totals });
    this.add(project, totals, 1);
  }

  delete(consumer: string): void {
    const held = this.consumers.get(consumer);
    if (!held) return;
    this.consumers.delete(consumer);
    this.add(held.project, held.totals, -1);
  }

  /** The project a consumer's allocations are charged to; undefined for a consumer holding nothing. */
  projectOf(consumer: string): string | undefined {
    return this.consumers.get(consumer)?.project;
  }

  /** Per project, per class, the units held; classes and projects holding nothing are left out. */
  usage(): ReadonlyMap<string, ReadonlyMap<string, number>> {
    return this.projects;
  }

  private add(project: string, totals: ReadonlyMap<string, number>, sign: 1 | -1): void {
    let classes = this.projects.get(project);
    if (!classes) this.projects.set(project, (classes = new Map()));
    for (const [resourceClass, used] of totals) {
      const next = (classes.get(resourceClass) ?? 0) + sign * used;
      if (next === 0) classes.delete(resourceClass);
      else classes.set(resourceClass, next);
    }
    if (classes.size === 0) this.projects.delete(project);
  }
}
