/** One consumer's set: provider uuid -> resource class -> units. */
type ConsumerSet = Readonly<Record<string, Readonly<Record<string, number>>>>;

/**
 * Per class, the units one consumer holds, flat: [class, units, class, units, ...]. Tens of
 * thousands of consumers each with a Map cost several times the memory of one small array.
 */
type Totals = readonly (string | number)[];

/** The project, then the totals: [project, class, units, ...], one array per consumer and no more. */
type Held = readonly (string | number)[];

/** The tally as plain data, in its maps' own orders. */
export interface ProjectTallySnapshot {
  readonly consumers: readonly (readonly [consumer: string, project: string, totals: Totals])[];
  readonly projects: readonly (readonly [project: string, classes: readonly (readonly [string, number])[]])[];
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
    const sums = new Map<string, number>();
    for (const resources of Object.values(allocations)) {
      for (const [resourceClass, used] of Object.entries(resources)) sums.set(resourceClass, (sums.get(resourceClass) ?? 0) + used);
    }
    const held = [project, ...[...sums].flat()];
    this.consumers.set(consumer, held);
    this.add(project, held, 1);
  }

  delete(consumer: string): void {
    const held = this.consumers.get(consumer);
    if (!held) return;
    this.consumers.delete(consumer);
    this.add(held[0] as string, held, -1);
  }

  /** The project a consumer's allocations are charged to; undefined for a consumer holding nothing. */
  projectOf(consumer: string): string | undefined {
    return this.consumers.get(consumer)?.[0] as string | undefined;
  }

  /** Per project, per class, the units held; classes and projects holding nothing are left out. */
  usage(): ReadonlyMap<string, ReadonlyMap<string, number>> {
    return this.projects;
  }

  toSnapshot(): ProjectTallySnapshot {
    return {
      consumers: [...this.consumers].map(([consumer, held]) => [consumer, held[0] as string, held.slice(1)] as const),
      projects: [...this.projects].map(([project, classes]) => [project, [...classes]] as const),
    };
  }

  static fromSnapshot(snapshot: ProjectTallySnapshot): ProjectTally {
    const tally = new ProjectTally();
    for (const [consumer, project, totals] of snapshot.consumers) tally.restoreConsumer(consumer, project, totals);
    tally.restoreProjects(snapshot.projects);
    return tally;
  }

  /** One consumer of a snapshot, as its part is read (what the part parsed is dropped young). */
  restoreConsumer(consumer: string, project: string, totals: Totals): void {
    this.consumers.set(consumer, [project, ...totals]);
  }

  restoreProjects(projects: ProjectTallySnapshot['projects']): void {
    for (const [project, classes] of projects) this.projects.set(project, new Map(classes));
  }

  /** Adds or takes away what `held` holds (its totals from index 1 on). */
  private add(project: string, held: Held, sign: 1 | -1): void {
    let classes = this.projects.get(project);
    if (!classes) this.projects.set(project, (classes = new Map()));
    for (let i = 1; i < held.length; i += 2) {
      const resourceClass = held[i] as string;
      const next = (classes.get(resourceClass) ?? 0) + sign * (held[i + 1] as number);
      if (next === 0) classes.delete(resourceClass);
      else classes.set(resourceClass, next);
    }
    if (classes.size === 0) this.projects.delete(project);
  }
}
