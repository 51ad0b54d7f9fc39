import { Version } from '../platform/microversion.js';
import { PlacementError } from '../platform/placement-error.js';
import type { RequestGroup } from '#placement/candidates/request.js';
import { candidateRequestOf, parseCandidateQuery } from './candidate-query.js';

const parse = (query: string, version = '1.39') => parseCandidateQuery(new URLSearchParams(query), Version.parse(version));
const refusal = (query: string, version = '1.39') => {
  try {
    parse(query, version);
  } catch (error) {
    const { status, detail, code } = error as PlacementError;
    return { status, detail, code };
  }
  throw new Error(`${query} was accepted`);
};
const AGG = '3f9d4a1c-1111-4e8f-88be-00d85fcb1c17';

describe('parseCandidateQuery', () => {
  it('reads groups in the order their suffixes appear, with request-wide parameters', () => {
    const request = parse('resources_B=VCPU:1&resources=MEMORY_MB:512,DISK_GB:10&required=in:HW_CPU_X86_AVX,HW_CPU_X86_AVX2&required=!CUSTOM_X'
      + `&member_of=!${AGG}&in_tree_B=${AGG}&limit=5&limit=9&group_policy=isolate&root_required=COMPUTE_X,!COMPUTE_Y&same_subtree=_B`);
    expect(request.groups.map((g) => g.suffix)).toEqual(['_B', '']);
    expect(request.groups[1]).toEqual({
      suffix: '', resources: [['MEMORY_MB', 512], ['DISK_GB', 10]], requiredTraits: [['HW_CPU_X86_AVX', 'HW_CPU_X86_AVX2']],
      forbiddenTraits: ['CUSTOM_X'], memberOf: [], forbiddenAggregates: [AGG], inTree: null,
    });
    expect(request.groups[0].inTree).toBe(AGG);
    expect(request).toMatchObject({ limit: 5, groupPolicy: 'isolate', rootRequired: ['COMPUTE_X'], rootForbidden: ['COMPUTE_Y'], sameSubtrees: [['_B']], nestedAware: true });
  });

  it('validates against the microversion schema', () => {
    expect(refusal('resources=VCPU:1&limit=5', '1.15').detail).toContain("'limit' was unexpected");
    expect(refusal('resources=VCPU:1&limit=0', '1.16').detail).toContain("Failed validating 'pattern'");
    expect(refusal('', '1.10').detail).toContain("'resources' is a required property");
    expect(refusal('resources=VCPU:1&resources1=VCPU:1', '1.24').detail).toContain("'resources1' was unexpected");
    expect(refusal('resources01=VCPU:1', '1.25').detail).toContain("'resources01' does not match any of the regexes");
    expect(refusal('resources1@=VCPU:1', '1.33').detail).toContain("'^in_tree([a-zA-Z0-9_-]{1,64})?$', '^member_of([a-zA-Z0-9_-]{1,64})?$'");
    expect(refusal('resources=VCPU:1&root_required=X', '1.34').detail).toContain("'root_required' does not match any of the regexes");
    expect(refusal('resources=VCPU:1&group_policy=bogus').detail).toContain("'bogus' is not one of ['none', 'isolate']");
  });

  it('refuses bad values with upstream messages and codes', () => {
    expect(refusal('resources=').detail).toContain('Got: empty string.');
    expect(refusal('resources=VCPU:x').detail).toBe('Requested resource VCPU expected positive integer amount. Got: x.');
    expect(refusal('resources=VCPU:1&required=').detail).toContain('HW_CPU_X86_VMX,!CUSTOM_MAGIC. Got an empty trait');
    expect(refusal('resources=VCPU:1&required=!CUSTOM_MAGIC', '1.17').detail).toContain('HW_CPU_X86_VMX,CUSTOM_MAGIC. Got: !CUSTOM_MAGIC');
    expect(refusal('resources=VCPU:1&member_of=nope').detail).toContain("Expected 'member_of' parameter to contain valid UUID(s).");
    expect(refusal('resources=VCPU:1&in_tree=nope', '1.31').detail).toContain("Expected 'in_tree' parameter to be a format of uuid");
    expect(refusal('resources=VCPU:1&root_required=A&root_required=B')).toEqual({
      status: 400, detail: "Query parameter 'root_required' may be specified only once.", code: 'placement.query.duplicate_key' });
    expect(refusal('resources=VCPU:1&root_required=A,!A')).toMatchObject({ detail: 'Conflicting required and forbidden traits found in root_required: A', code: 'placement.query.bad_value' });
    expect(refusal('resources=VCPU:1&same_subtree=_A,')).toMatchObject({ code: 'placement.query.bad_value' });
  });

  it('wants group_policy with several granular groups, with upstream\'s (undefined) code', () => {
    expect(refusal('resources1=VCPU:1&resources2=VCPU:1')).toMatchObject({
      detail: 'The "group_policy" parameter is required when specifying more than one "resources{N}" parameter.', code: 'placement.undefined_code' });
    expect(parse('resources=VCPU:1&resources1=VCPU:1').groupPolicy).toBeNull();
  });

  it('before 1.36 wants resources with every group; from 1.36 resourceless groups live in same_subtree', () => {
    expect(refusal('required=FOO&required1=BAR', '1.35').detail).toContain('orphaned traits keys: required, required1');
    expect(refusal(`member_of=${AGG}&member_of3=${AGG}`, '1.35').detail).toContain('orphaned member_of keys: member_of, member_of3');
    expect(refusal('resources=VCPU:1&in_tree1=' + AGG, '1.35').detail).toBe('All request groups must specify resources.');
    expect(refusal('', '1.35').detail).toContain('At least one request group');
    expect(refusal('required_A=FOO')).toMatchObject({ detail: 'There must be at least one resources or resources[$S] parameter.', code: 'placement.query.missing_value' });
    expect(refusal('resources=VCPU:1&required_A=FOO').detail).toContain("bad group(s) - ['_A'].");
    expect(refusal('resources=VCPU:1&same_subtree=_Z').detail).toContain("Real suffixes should be specified in `same_subtree`: ['_Z'] not found in [''].");
    expect(parse('resources=VCPU:1&required_A=FOO&same_subtree=_A').groups.map((g) => g.suffix)).toEqual(['', '_A']);
  });

  it('refuses an any-of set made only of forbidden traits (from 1.22)', () => {
    expect(refusal('resources1=VCPU:1&required1=A,!A').detail).toBe('Conflicting required and forbidden traits found in the following traits keys: required1: (A)');
  });

  it('keeps the last repeated required before 1.39, and ANDs them from 1.39', () => {
    expect(parse('resources=VCPU:1&required=A&required=B', '1.38').groups[0].requiredTraits).toEqual([['B']]);
    expect(parse('resources=VCPU:1&required=A&required=B').groups[0].requiredTraits).toEqual([['A'], ['B']]);
    expect(parse('resources=VCPU:1', '1.28').nestedAware).toBe(false);
  });
});

describe('candidateRequestOf', () => {
  const query = 'resources=VCPU:1,MEMORY_MB:512&required=!CUSTOM_X&limit=1000';

  it('hands every asker of one query string at one microversion the same request, frozen all the way down', () => {
    const first = candidateRequestOf(query, Version.parse('1.36'));
    expect(first).toEqual(parse(query, '1.36'));
    expect(candidateRequestOf(query, Version.parse('1.36'))).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.groups) && Object.isFrozen(first.groups[0].resources[0])).toBe(true);
    expect(() => (first.groups as RequestGroup[]).push(first.groups[0])).toThrow(TypeError);
  });

  it('parses the same text again at another microversion, where its meaning may differ', () => {
    const below = candidateRequestOf(query, Version.parse('1.28'));
    expect(below).not.toBe(candidateRequestOf(query, Version.parse('1.36')));
    expect(below.nestedAware).toBe(false);
  });

  it('refuses a bad query string every time it is asked', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => candidateRequestOf('resources=VCPU:0', Version.parse('1.36'))).toThrow(PlacementError);
    }
  });
});
