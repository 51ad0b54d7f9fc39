import type { ConsumerClaim } from '#domain/allocation/index.js';
import { heldBy, projectAOnly } from '../shared/owner-access-fixtures.js';
import { judgeClaims, judgeRemoval } from './claim-access.js';

const claimFor = (consumerUuid: string, projectId: string): ConsumerClaim => ({
  consumerUuid, allocations: {}, projectId, userId: `user-${projectId}`, expectedGeneration: 1,
});

describe('judging the consumers a claim writes', () => {
  it('asks about the owner before and the project charged after, and lets a project write its own', () => {
    const access = projectAOnly();
    judgeClaims(access, [claimFor('c1', 'A'), claimFor('new', 'A')], { c1: heldBy('A'), new: { status: 'absent' } });
    expect(access.asked).toEqual(['A', 'A', 'A']);
  });

  it('refuses taking another project\'s consumer, and charging another project with one', () => {
    expect(() => judgeClaims(projectAOnly(), [claimFor('c', 'A')], { c: heldBy('B') })).toThrow('403');
    expect(() => judgeClaims(projectAOnly(), [claimFor('c', 'B')], { c: heldBy('A') })).toThrow('403');
    expect(() => judgeClaims(projectAOnly(), [claimFor('new', 'B')], {})).toThrow('403');
    expect(() => judgeClaims(projectAOnly(), [claimFor('a', 'A'), claimFor('b', 'B')], { a: heldBy('A'), b: heldBy('B') })).toThrow('403');
  });

  it('lets a project remove its own consumer, and leaves a consumer nobody holds to who may act for every project', () => {
    const access = projectAOnly();
    judgeRemoval(access, 'c', { c: heldBy('A') });
    expect(access.asked).toEqual(['A']);
    expect(() => judgeRemoval(projectAOnly(), 'c', { c: heldBy('B') })).toThrow('403');
    const nobody = projectAOnly();
    expect(() => judgeRemoval(nobody, 'c', { c: { status: 'absent' } })).toThrow('403');
    expect(nobody.asked).toEqual([null]);
  });
});
