import { NameCatalog } from '#placement/candidates/index/name-catalog.js';
import { ProviderIndex } from '#placement/candidates/index/provider-index.js';
import { searchCandidates } from '#placement/candidates/search/search.js';
import { parseCandidateQuery } from '#placement-api/allocation-candidates/candidate-query.js';
import { presentCandidates } from '#placement-api/allocation-candidates/allocation-candidates.presenter.js';
import { candidateSearchOptions } from '#placement-api/allocation-candidates/candidate-settings.js';
import { MAX_VERSION } from '#placement-api/platform/microversion.js';
import { AnswerReuse } from '#placement/candidates/reuse/answer-reuse.js';

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export interface Breakdown {
  readonly searchMs: number;
  readonly serializeMs: number;
}

/**
 * Where a query's CPU time goes inside the process (mean of `rounds`): the search over the
 * index, and building the JSON text, one after the other in each round as a request does them.
 * Each repeated alone runs in less time on a large answer, as the other's walk of memory no
 * longer evicts its data. The HTTP
 * figures add parsing, the log check and the wire.
 */
export function breakdown(index: ProviderIndex, names: NameCatalog, path: string, rounds = 50): Breakdown {
  const query = new URLSearchParams(path.slice(path.indexOf('?') + 1));
  const request = parseCandidateQuery(query, MAX_VERSION);
  const options = candidateSearchOptions({});
  // Warm the JIT first; then CPU time, which a busy machine disturbs far less than wall time.
  const reuse = new AnswerReuse();
  for (let i = 0; i < rounds; i++) presentCandidates(searchCandidates(index, names, request, options), request, MAX_VERSION, reuse);
  let searchMs = 0;
  let serializeMs = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = cpuMs();
    const result = searchCandidates(index, names, request, options);
    const t1 = cpuMs();
    presentCandidates(result, request, MAX_VERSION, reuse);
    searchMs += t1 - t0;
    serializeMs += cpuMs() - t1;
  }
  return { searchMs: searchMs / rounds, serializeMs: serializeMs / rounds };
}
