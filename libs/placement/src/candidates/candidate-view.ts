import { NameCatalog } from './index/name-catalog.js';
import { ProjectTally } from './index/project-tally.js';
import { ProviderIndex } from './index/provider-index.js';

/** What the candidate search and GET /metrics read: the log folded into memory. */
export interface CandidateView {
  readonly index: ProviderIndex;
  readonly names: NameCatalog;
  /** Usage per project, for GET /metrics. */
  readonly projects: ProjectTally;
}

export const emptyView = (): CandidateView => ({ index: new ProviderIndex(), names: new NameCatalog(), projects: new ProjectTally() });
