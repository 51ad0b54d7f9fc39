import { NameCatalog, NameCatalogSnapshot } from '../index/name-catalog.js';
import { ProjectTally, ProjectTallySnapshot } from '../index/project-tally.js';
import { ProviderIndex, ProviderIndexSnapshot, UnreadableSnapshot } from '../index/provider-index.js';
import type { CandidateView } from '../candidate-view.js';

/**
 * Bumped whenever the payload's shape or meaning changes (the index's structures, the domain's
 * provider state): a snapshot of another format is passed over and the log replayed instead.
 */
export const SNAPSHOT_FORMAT = 1;

interface Payload {
  readonly format: number;
  readonly index: ProviderIndexSnapshot;
  readonly names: NameCatalogSnapshot;
  readonly projects: ProjectTallySnapshot;
}

/**
 * JSON of plain data (no Maps, Sets or undefined in the parts). Measured on the 1,000,001-event
 * bench cloud's view (11,284 providers, 80,000 consumers): 21 MB, JSON.parse 0.4-0.6 s where
 * v8.deserialize took 1.2-1.5 s for the same data (22 MB) on the same busy machine.
 */
export function encodeView(view: CandidateView): string {
  const payload: Payload = {
    format: SNAPSHOT_FORMAT, index: view.index.toSnapshot(), names: view.names.toSnapshot(), projects: view.projects.toSnapshot(),
  };
  return JSON.stringify(payload);
}

/** The view a payload holds; UnreadableSnapshot if it is not one of this format. */
export function decodeView(text: string): CandidateView {
  let payload: Payload;
  try {
    payload = JSON.parse(text) as Payload;
  } catch (error) {
    throw new UnreadableSnapshot(`not a serialized view: ${(error as Error).message}`);
  }
  if (payload?.format !== SNAPSHOT_FORMAT) throw new UnreadableSnapshot(`format ${String(payload?.format)}, not ${SNAPSHOT_FORMAT}`);
  try {
    return {
      index: ProviderIndex.fromSnapshot(payload.index),
      names: NameCatalog.fromSnapshot(payload.names),
      projects: ProjectTally.fromSnapshot(payload.projects),
    };
  } catch (error) {
    if (error instanceof UnreadableSnapshot) throw error;
    // A payload of the right format whose parts are not what they should be (a TypeError deep inside).
    throw new UnreadableSnapshot(`a damaged view: ${(error as Error).message}`);
  }
}
