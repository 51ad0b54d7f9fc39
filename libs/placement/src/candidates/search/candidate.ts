import { ProviderNode } from '../index/provider-index.js';
import { unique } from '#domain/shared/unique.js';

export type Resources = ReadonlyArray<readonly [string, number]>;

export interface Allocation {
  readonly provider: ProviderNode;
  readonly resources: Resources;
}

/** One allocation request: what to take from whom, and which providers met which group. */
export interface Candidate {
  readonly allocations: readonly Allocation[];
  readonly mappings: ReadonlyArray<readonly [string, readonly ProviderNode[]]>;
}

/** How the levels of a search map to request groups: shared by all its candidates. */
export interface LevelLayout {
  /** Per level, what the provider picked there gives. */
  readonly resources: readonly Resources[];
  /** Per group, in request order: its suffix and its levels. */
  readonly groups: ReadonlyArray<{ readonly suffix: string; readonly levels: readonly number[] }>;
}

/** Two levels taking from one provider: one entry per class, amounts added. */
function addUp(a: Resources, b: Resources): Resources {
  const sum = new Map(a);
  for (const [rc, amount] of b) sum.set(rc, (sum.get(rc) ?? 0) + amount);
  return [...sum];
}

/**
 * A candidate kept as the provider picked per level; its arrays are made when read. Thousands
 * of candidates of a dozen small objects each cost more in garbage collection than in search.
 */
export class PickedCandidate implements Candidate {
  constructor(private readonly layout: LevelLayout, private readonly picked: readonly ProviderNode[]) {}

  /** A provider serving one level gives exactly that level's resources (a shared array). */
  get allocations(): Allocation[] {
    const allocations: Allocation[] = [];
    this.layout.resources.forEach((resources, level) => {
      if (resources.length === 0) return;
      const provider = this.picked[level];
      let at = allocations.length - 1;
      while (at >= 0 && allocations[at].provider !== provider) at--;
      if (at < 0) allocations.push({ provider, resources });
      else allocations[at] = { provider, resources: addUp(allocations[at].resources, resources) };
    });
    return allocations;
  }

  get mappings(): [string, ProviderNode[]][] {
    return this.layout.groups.map(({ suffix, levels }) =>
      [suffix, levels.length === 1 ? [this.picked[levels[0]]] : unique(levels.map((l) => this.picked[l]))]);
  }
}

/** One provider taking a whole group (the streamed search): one small object per candidate. */
export class OneProviderCandidate implements Candidate {
  constructor(readonly provider: ProviderNode, readonly resources: Resources, readonly suffix: string) {}

  get allocations(): Allocation[] {
    return this.resources.length > 0 ? [{ provider: this.provider, resources: this.resources }] : [];
  }

  get mappings(): [string, ProviderNode[]][] {
    return [[this.suffix, [this.provider]]];
  }
}
