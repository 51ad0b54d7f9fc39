import type { ExplainStep } from '../search/explain.js';

/** The names for the engine's steps, plus what only the whole request has. */
type StepName =
  | 'resources' | 'capacity' | 'traits' | 'aggregates' | 'in_tree' | 'root_required'
  | 'same_subtree / group policy' | 'candidates' | 'summaries';

export interface NamedStep {
  /** The request group's suffix ('' is the unsuffixed group), or null for the whole request. */
  readonly group: string | null;
  readonly step: StepName;
  readonly count: number;
  /** What the engine counted, in its words. */
  readonly detail: string;
}

const RULES: ReadonlyArray<readonly [RegExp, StepName]> = [
  [/^roots meeting root_required$/, 'root_required'],
  [/: some provider meets member_of$/, 'aggregates'],
  [/: in_tree provider found$/, 'in_tree'],
  [/: providers with \d+ \S+ free$/, 'capacity'],
  [/: trees able to give every class so far/, 'capacity'],
  [/: providers with any required trait$/, 'traits'],
  [/: trees left by the trait filters$/, 'traits'],
  [/: providers examined$/, 'resources'],
  [/: providers meeting the whole group$/, 'traits'],
  // A provider-per-group search anchors each choice to a root: root_required and sharing decide.
  [/: anchors$/, 'root_required'],
  [/^combinations (tried|pruned)$/, 'same_subtree / group policy'],
  [/^candidates$/, 'candidates'],
  [/^providers summarized$/, 'summaries'],
];

const GROUP_LABEL = /^group '([^']*)': /;

/**
 * The engine's recorded counts under the step names, its own words kept as the detail.
 * A label this build does not know is left out rather than misnamed.
 */
export function nameEngineSteps(steps: readonly ExplainStep[]): NamedStep[] {
  const named: NamedStep[] = [];
  for (const { step, count } of steps) {
    const rule = RULES.find(([pattern]) => pattern.test(step));
    if (!rule) continue;
    const group = GROUP_LABEL.exec(step)?.[1] ?? null;
    named.push({ group, step: rule[1], count, detail: step.replace(GROUP_LABEL, '') });
  }
  return named;
}
