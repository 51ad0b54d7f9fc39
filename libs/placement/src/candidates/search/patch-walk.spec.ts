import { flatCloud, putChanged } from '#test/support/candidate-fixtures.js';
import { NameCatalog } from '../index/name-catalog.js';
import { indexOf } from '../index/plain-index.js';
import { patchWalk } from './patch-walk.js';
import { candidateRequest, group } from './request-builder.js';
import { CandidateResult, searchCandidates } from './search.js';

const OPTIONS = { randomize: false, maxCandidates: null };
const names = new NameCatalog();
const request = (limit: number | null) => candidateRequest([group('', { resources: [['VCPU', 4]] })], { limit });
const uuids = (result: CandidateResult | null) => result?.candidates.map((c) => c.allocations[0].provider.uuid);

/** Five providers of 8 VCPU, c0000 to c0004, and an answer of the request found before `write`, patched after it. */
function patchedAfter(limit: number | null, write: (use: (uuid: string, vcpu: number) => void) => void) {
  const index = indexOf(flatCloud(5));
  const use = (uuid: string, vcpu: number) => putChanged(index, index.get(uuid)!.state, { usages: { VCPU: vcpu } });
  use('c0000', 8);
  const before = searchCandidates(index, names, request(limit), OPTIONS);
  const version = index.version;
  write(use);
  return { before, patched: patchWalk(before, index.changesSince(version)!, index.version), fresh: searchCandidates(index, names, request(limit), OPTIONS) };
}

describe('patching a streamed answer with the changes since (patchWalk)', () => {
  it('drops a provider that no longer has room and, cut by a limit, walks on past the cut for another', () => {
    const { before, patched, fresh } = patchedAfter(2, (use) => use('c0001', 6));
    expect(uuids(before)).toEqual(['c0001', 'c0002']);
    expect(uuids(patched)).toEqual(['c0002', 'c0003']);
    expect(uuids(patched)).toEqual(uuids(fresh));
    // Where each candidate came from: the bytes the API copies.
    expect([...patched!.walked!.base!.from]).toEqual([1, -1]);
    expect(patched!.walked!.base!.result).toBe(before);
  });

  it('keeps a provider claimed from but still with room, and ignores one claimed from past the cut', () => {
    const { before, patched, fresh } = patchedAfter(2, (use) => {
      use('c0002', 2);
      use('c0004', 8);
    });
    expect(uuids(patched)).toEqual(['c0001', 'c0002']);
    expect(uuids(patched)).toEqual(uuids(fresh));
    // Nothing left: the patch lists the answer's own candidates, each where it stood.
    expect(patched!.candidates).toBe(before.candidates);
    expect([...patched!.walked!.base!.from]).toEqual([0, 1]);
  });

  it('cannot tell where a provider that was given room belongs, and says so', () => {
    expect(patchedAfter(2, (use) => use('c0000', 0)).patched).toBeNull();
    expect(patchedAfter(null, (use) => use('c0000', 0)).patched).toBeNull();
    // Given room, then claimed from again: still not only shrunk.
    expect(patchedAfter(2, (use) => {
      use('c0000', 0);
      use('c0000', 2);
    }).patched).toBeNull();
  });

  it('drops a provider from an answer without a cut and walks no further', () => {
    const { patched, fresh } = patchedAfter(null, (use) => use('c0003', 5));
    expect(uuids(patched)).toEqual(['c0001', 'c0002', 'c0004']);
    expect(uuids(patched)).toEqual(uuids(fresh));
  });

  it('lets go of what a patch was made from once the patch is patched', () => {
    const index = indexOf(flatCloud(5));
    const first = searchCandidates(index, names, request(null), OPTIONS);
    const claim = (uuid: string) => putChanged(index, index.get(uuid)!.state, { usages: { VCPU: 1 } });
    claim('c0001');
    const second = patchWalk(first, index.changesSince(first.walked!.version)!, index.version)!;
    claim('c0002');
    const third = patchWalk(second, index.changesSince(second.walked!.version)!, index.version)!;
    expect(second.walked!.base!.result).toBeNull();
    expect(third.walked!.base!.result).toBe(second);
  });
});
