import { NameCatalog } from '../index/name-catalog.js';
import { indexOf, PlainProvider } from '../index/plain-index.js';
import { CandidateRequest, GenerationStrategy } from '../request.js';
import { Candidate } from './combine.js';
import { candidateRequest, group } from './request-builder.js';
import { searchCandidates } from './search.js';

/** Roots r0, r1 with four PCI children each, r2 with one; every root has VCPU. */
const trees: [string, number][] = [['r0', 4], ['r1', 4], ['r2', 1]];
const deployment: PlainProvider[] = trees.flatMap(([root, children]): PlainProvider[] => [
  { uuid: root, inventories: { VCPU: { total: 8 } } },
  ...Array.from({ length: children }, (_v, i) => ({ uuid: `${root}c${i}`, parent: root, inventories: { PCI_DEVICE: { total: 1 } } })),
]);
const names = new NameCatalog();
const search = (request: CandidateRequest, strategy: GenerationStrategy, maxCandidates: number | null = null) =>
  searchCandidates(indexOf(deployment), names, request, { randomize: false, maxCandidates, strategy }).candidates;
/** The PCI provider a candidate takes from. */
const pci = (c: Candidate) => c.allocations.map((a) => a.provider.uuid).find((uuid) => uuid.includes('c'))!;

const vcpuAndPci = (limit: number | null = null) =>
  candidateRequest([group('', { resources: [['VCPU', 1]] }), group('1', { resources: [['PCI_DEVICE', 1]] })], { limit });
const pciOnly = (limit: number | null = null) => candidateRequest([group('1', { resources: [['PCI_DEVICE', 1]] })], { limit });

describe('allocation_candidates_generation_strategy', () => {
  it('depth-first: every candidate of one root before the next', () => {
    expect(search(vcpuAndPci(), 'depth-first').map(pci)).toEqual(['r0c0', 'r0c1', 'r0c2', 'r0c3', 'r1c0', 'r1c1', 'r1c2', 'r1c3', 'r2c0']);
    expect(search(vcpuAndPci(), 'depth-first', 3).map(pci)).toEqual(['r0c0', 'r0c1', 'r0c2']);
  });

  it('breadth-first: one candidate of each root in turn; a root that runs out drops out', () => {
    expect(search(vcpuAndPci(), 'breadth-first').map(pci)).toEqual(['r0c0', 'r1c0', 'r2c0', 'r0c1', 'r1c1', 'r0c2', 'r1c2', 'r0c3', 'r1c3']);
  });

  it('breadth-first: max_allocation_candidates and limit take the first of that round robin', () => {
    expect(search(vcpuAndPci(), 'breadth-first', 3).map(pci)).toEqual(['r0c0', 'r1c0', 'r2c0']);
    expect(search(vcpuAndPci(4), 'breadth-first').map(pci)).toEqual(['r0c0', 'r1c0', 'r2c0', 'r0c1']);
    // A first ask of 3 per root finds 7; asking again for more gives the true first 8.
    expect(search(vcpuAndPci(), 'breadth-first', 8).map(pci)).toEqual(['r0c0', 'r1c0', 'r2c0', 'r0c1', 'r1c1', 'r0c2', 'r1c2', 'r0c3']);
  });

  it('applies to a lone granular group streamed provider by provider', () => {
    expect(search(pciOnly(), 'depth-first', 3).map(pci)).toEqual(['r0c0', 'r0c1', 'r0c2']);
    expect(search(pciOnly(), 'breadth-first', 4).map(pci)).toEqual(['r0c0', 'r1c0', 'r2c0', 'r0c1']);
    expect(search(pciOnly(5), 'breadth-first').map(pci)).toEqual(['r0c0', 'r1c0', 'r2c0', 'r0c1', 'r1c1']);
  });
});
