import { deserialize, serialize } from 'node:v8';
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
 * V8's own serializer over plain data: several times faster than JSON both ways on this shape
 * (many small objects), and it keeps numbers and nesting without a schema of ours.
 */
export function encodeView(view: CandidateView): Buffer {
  const payload: Payload = {
    format: SNAPSHOT_FORMAT, index: view.index.toSnapshot(), names: view.names.toSnapshot(), projects: view.projects.toSnapshot(),
  };
  return serialize(payload);
}

/** The view a payload holds; UnreadableSnapshot if it is not one of this format. */
export function decodeView(buffer: Buffer): CandidateView {
  let payload: Payload;
  try {
    payload = deserialize(buffer) as Payload;
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
