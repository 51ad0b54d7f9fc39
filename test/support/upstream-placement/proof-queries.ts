import { AGG, PROJECT, RP, USER } from './proof-fixture.js';

/** The microversions every GET is asked at: the first, nested providers, consumer generations, consumer types, any-traits. */
export const PROOF_VERSIONS = ['1.0', '1.14', '1.28', '1.38', '1.39'] as const;

/** Provider listings with filters (each filter appeared at some microversion; below it both servers must refuse alike). */
export const PROVIDER_QUERIES: readonly string[] = [
  '', 'name=proof-cn1', `uuid=${RP.cn2}`, `uuid=${RP.gone}`, `member_of=${AGG.b}`, `member_of=in:${AGG.a},${AGG.c}`,
  `member_of=!${AGG.a}`, `in_tree=${RP.numa1}`, `in_tree=${RP.stray}`, 'resources=VCPU:1', 'resources=DISK_GB:100,MEMORY_MB:1024',
  'resources=CUSTOM_PROOF_BW:500', 'required=HW_NUMA_ROOT', 'required=!HW_NUMA_ROOT,CUSTOM_PROOF_FAST',
  'required=in:HW_CPU_X86_AVX2,HW_CPU_X86_SSE42', `resources=VCPU:1&in_tree=${RP.cn1}&required=HW_NUMA_ROOT`,
];

export const TRAIT_QUERIES: readonly string[] = [
  '', 'associated=true', 'associated=false', 'name=startswith:CUSTOM_', 'name=in:HW_NUMA_ROOT,CUSTOM_PROOF_GOLD,CUSTOM_PROOF_DOOMED',
  'name=startswith:HW_NUMA&associated=true',
];

/** Usages by project, by project and user, and (1.38) by consumer type. */
export function usageQueries(projects: readonly string[], users: readonly string[]): string[] {
  const out: string[] = [];
  for (const project of projects) {
    out.push(`project_id=${project}`);
    for (const user of users) out.push(`project_id=${project}&user_id=${user}`);
    for (const type of ['INSTANCE', 'MIGRATION', 'BAREMETAL', 'unknown', 'all', 'INSTANCE,MIGRATION']) out.push(`project_id=${project}&consumer_type=${type}`);
  }
  out.push(`project_id=${PROJECT.alpha}&user_id=${USER.u1}&consumer_type=INSTANCE`, '');
  return out;
}

/** Single and granular requests over the fixture's trees, sharing providers and traits. */
export const CANDIDATE_QUERIES: readonly string[] = [
  'resources=VCPU:1',
  'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:10',
  'resources=DISK_GB:100',
  'resources=MEMORY_MB:256',
  `resources=VCPU:1,DISK_GB:50&member_of=${AGG.b}`,
  `resources=DISK_GB:10&member_of=in:${AGG.a},${AGG.c}`,
  `resources=VCPU:1&member_of=!${AGG.a}`,
  'resources=VCPU:1&required=HW_CPU_X86_AVX2',
  'resources=VCPU:1&required=!HW_CPU_X86_AVX2',
  'resources=VCPU:1&required=in:HW_CPU_X86_AVX2,HW_CPU_X86_SSE42',
  `resources=VCPU:2,MEMORY_MB:512&in_tree=${RP.cn1}`,
  'resources=IPV4_ADDRESS:1,VCPU:1',
  'resources=CUSTOM_PROOF_BW:500',
  'resources=VCPU:1&limit=2',
  'resources1=VCPU:1&resources2=SRIOV_NET_VF:1&group_policy=isolate',
  'resources1=VCPU:1&required1=HW_NUMA_ROOT&resources2=CUSTOM_PROOF_BW:100&same_subtree=1,2&group_policy=none',
  'resources=DISK_GB:1&resources_GPU=VGPU:1&required_GPU=CUSTOM_PROOF_GOLD&group_policy=none',
  'resources=VCPU:1&root_required=CUSTOM_PROOF_FAST',
  'resources=VCPU:1&root_required=!CUSTOM_PROOF_FAST',
  'resources1=VCPU:1&resources2=DISK_GB:10&group_policy=none&limit=3',
  'resources=VCPU:100',
];
