import type { ProjectTally } from '../candidates/index/project-tally.js';

/** One placement_project_usage series: what a project's consumers hold of a class, over every provider. */
export interface ProjectUsageSample {
  readonly labels: { readonly project_id: string; readonly resource_class: string };
  readonly used: number;
}

/** The series from the tally the candidate index keeps beside it: as GET /usages sums per project. */
export function projectUsage(tally: ProjectTally): ProjectUsageSample[] {
  const samples: ProjectUsageSample[] = [];
  for (const [project, classes] of tally.usage()) {
    for (const [resourceClass, used] of classes) samples.push({ labels: { project_id: project, resource_class: resourceClass }, used });
  }
  return samples;
}
