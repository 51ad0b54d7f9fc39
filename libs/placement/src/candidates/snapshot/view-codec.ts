import { NameCatalog, NameCatalogSnapshot } from '../index/name-catalog.js';
import { ProjectTally, ProjectTallySnapshot } from '../index/project-tally.js';
import { ProviderIndex, ProviderIndexSnapshot, UnreadableSnapshot } from '../index/provider-index.js';
import type { CandidateView } from '../candidate-view.js';

/**
 * Bumped whenever the payload's shape or meaning changes (the index's structures, the domain's
 * provider state): a snapshot of another format is passed over and the log replayed instead.
 */
export const SNAPSHOT_FORMAT = 1;

/** Providers, and consumers of the project tally, per part: parts of about a megabyte (docs/performance.md). */
const PROVIDERS_PER_PART = 1000;
const CONSUMERS_PER_PART = 10_000;

type Part =
  | {
    readonly kind: 'head'; readonly format: number; readonly providers: number; readonly consumers: number;
    readonly byClass: ProviderIndexSnapshot['byClass']; readonly byTrait: ProviderIndexSnapshot['byTrait']; readonly byAggregate: ProviderIndexSnapshot['byAggregate'];
    readonly names: NameCatalogSnapshot; readonly projects: ProjectTallySnapshot['projects'];
  }
  | { readonly kind: 'providers'; readonly states: ProviderIndexSnapshot['states']; readonly children: ProviderIndexSnapshot['children'] }
  | { readonly kind: 'consumers'; readonly consumers: ProjectTallySnapshot['consumers'] };

/**
 * The view as JSON parts of plain data. JSON: JSON.parse reads a large view faster than
 * v8.deserialize does. Parts: a start-up never holds the whole text, nor the pg driver's receive
 * buffer for it, at once, which keeps external memory at its peak low (docs/performance.md).
 */
export function encodeView(view: CandidateView): string[] {
  return [...viewParts(view)];
}

/**
 * The view's parts, their text made one at a time when asked for. The view's state is copied
 * at the call (the index goes on following the log meanwhile; the provider states and the
 * tally's arrays it refers to are never changed in place, only replaced), so a caller may make
 * the parts over several turns of the event loop and still write the view as it was.
 */
export function viewParts(view: CandidateView): Iterable<string> {
  const index = view.index.toSnapshot();
  const tally = view.projects.toSnapshot();
  const names = view.names.toSnapshot();
  return (function* () {
    yield JSON.stringify({
      kind: 'head', format: SNAPSHOT_FORMAT, providers: index.states.length, consumers: tally.consumers.length,
      byClass: index.byClass, byTrait: index.byTrait, byAggregate: index.byAggregate, names, projects: tally.projects,
    } satisfies Part);
    for (let i = 0; i < index.states.length; i += PROVIDERS_PER_PART) {
      yield JSON.stringify({ kind: 'providers', states: index.states.slice(i, i + PROVIDERS_PER_PART), children: index.children.slice(i, i + PROVIDERS_PER_PART) } satisfies Part);
    }
    for (let i = 0; i < tally.consumers.length; i += CONSUMERS_PER_PART) {
      yield JSON.stringify({ kind: 'consumers', consumers: tally.consumers.slice(i, i + CONSUMERS_PER_PART) } satisfies Part);
    }
  })();
}

/** Takes the parts in order, one at a time, so each part's text is garbage before the next is read. */
export class ViewDecoder {
  private head: Extract<Part, { kind: 'head' }> | null = null;
  private readonly states: ProviderIndexSnapshot['states'][number][] = [];
  private readonly children: ProviderIndexSnapshot['children'][number][] = [];
  /** Consumers go into the tally as each part is read: the part's own arrays are then garbage while still young. */
  private readonly tally = new ProjectTally();
  private consumerCount = 0;

  add(text: string): void {
    let part: Part;
    try {
      part = JSON.parse(text) as Part;
    } catch (error) {
      throw new UnreadableSnapshot(`a part is not JSON: ${(error as Error).message}`);
    }
    if (!this.head) {
      if (part?.kind !== 'head' || part.format !== SNAPSHOT_FORMAT) throw new UnreadableSnapshot(`not a view of format ${SNAPSHOT_FORMAT}`);
      this.head = part;
    } else if (part?.kind === 'providers' && Array.isArray(part.states) && Array.isArray(part.children)) {
      for (const state of part.states) this.states.push(state);
      for (const children of part.children) this.children.push(children);
    } else if (part?.kind === 'consumers' && Array.isArray(part.consumers)) {
      for (const consumer of part.consumers) {
        if (!Array.isArray(consumer) || !Array.isArray(consumer[2])) throw new UnreadableSnapshot('a consumer is not [uuid, project, totals]');
        this.tally.restoreConsumer(consumer[0], consumer[1], consumer[2]);
      }
      this.consumerCount += part.consumers.length;
    } else {
      throw new UnreadableSnapshot('a part of no known kind');
    }
  }

  finish(): CandidateView {
    const head = this.head;
    if (!head || head.providers !== this.states.length || head.consumers !== this.consumerCount) throw new UnreadableSnapshot('parts are missing');
    try {
      return {
        index: ProviderIndex.fromSnapshot({ states: this.states, children: this.children, byClass: head.byClass, byTrait: head.byTrait, byAggregate: head.byAggregate }),
        names: NameCatalog.fromSnapshot(head.names),
        projects: (this.tally.restoreProjects(head.projects), this.tally),
      };
    } catch (error) {
      if (error instanceof UnreadableSnapshot) throw error;
      // Parts of the right kinds whose insides are not what they should be (a TypeError deep inside).
      throw new UnreadableSnapshot(`a damaged view: ${(error as Error).message}`);
    }
  }
}

/** The view the parts hold; UnreadableSnapshot if they are not one of this format. */
export function decodeView(parts: Iterable<string>): CandidateView {
  const decoder = new ViewDecoder();
  for (const part of parts) decoder.add(part);
  return decoder.finish();
}
