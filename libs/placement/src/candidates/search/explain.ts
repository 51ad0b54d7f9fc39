/** One narrowing step of a search and how many items it left. */
export interface ExplainStep {
  readonly step: string;
  readonly count: number;
}

/** The counts each step records; an 'explain' answer is exactly this list. */
export class Explain {
  readonly steps: ExplainStep[] = [];

  record(step: string, count: number): number {
    this.steps.push({ step, count });
    return count;
  }
}
