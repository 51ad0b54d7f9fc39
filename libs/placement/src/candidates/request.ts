/** One request group of GET /allocation_candidates, already parsed and validated by the HTTP layer. */
export interface RequestGroup {
  /** '' for the unsuffixed group; a suffixed (granular) group must be met by one provider. */
  readonly suffix: string;
  /** In query order; a class appears once. */
  readonly resources: ReadonlyArray<readonly [string, number]>;
  /** Each inner list is an any-of set; every set must be met. */
  readonly requiredTraits: ReadonlyArray<ReadonlyArray<string>>;
  readonly forbiddenTraits: ReadonlyArray<string>;
  /** Each inner list is an any-of set of aggregates; every set must be met. */
  readonly memberOf: ReadonlyArray<ReadonlyArray<string>>;
  readonly forbiddenAggregates: ReadonlyArray<string>;
  readonly inTree: string | null;
}

export type GroupPolicy = 'none' | 'isolate';

export interface CandidateRequest {
  /** In the order their suffixes first appear in the query string. */
  readonly groups: readonly RequestGroup[];
  readonly limit: number | null;
  readonly groupPolicy: GroupPolicy | null;
  /** root_required: traits the anchor (root) must have, and must not have. */
  readonly rootRequired: readonly string[];
  readonly rootForbidden: readonly string[];
  /** Each inner list: suffixes whose providers must all sit under one of them. */
  readonly sameSubtrees: ReadonlyArray<ReadonlyArray<string>>;
  /** From 1.29; below it a candidate may not take from two providers of one tree. */
  readonly nestedAware: boolean;
}

/** upstream's allocation_candidates_generation_strategy: the order the viable roots are visited in. */
export type GenerationStrategy = 'depth-first' | 'breadth-first';

export interface SearchOptions {
  /** upstream's randomize_allocation_candidates. */
  readonly randomize: boolean;
  /** Never generate more than this many candidates (null: no cap), as upstream's max_allocation_candidates. */
  readonly maxCandidates: number | null;
  /**
   * depth-first (absent, upstream's default): every candidate of one root before the next root;
   * breadth-first: one candidate of each root in turn, so a cap or limit reaches every root.
   */
  readonly strategy?: GenerationStrategy;
  /**
   * The explain endpoint's full counts: each group's providers and trees counted over the whole
   * deployment, where the search itself looks only at the trees the combination reaches.
   */
  readonly countEveryStep?: boolean;
  /** Injected so tests of the randomized order are exact. */
  readonly random?: () => number;
  /**
   * performance.now() past which the combination stops with what it has (explain's time budget);
   * a search for candidates has none, since a partial answer would be a wrong one.
   */
  readonly deadline?: number;
}

export const isGranular = (group: RequestGroup) => group.suffix !== '';
