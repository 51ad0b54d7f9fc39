import type { ProjectTally } from '#placement/candidates/index/project-tally.js';
import type { Access, Owner } from '../../platform/policy/access.js';
import type { CapacitySource } from './capacity.view.js';

/**
 * The owner the console's views judge a consumer's allocations against: the project they are
 * charged to, as the tally beside the candidate index knows it. The tally keeps no user, so a
 * rule that names the user shows none of them.
 */
export const tallyOwner = (tally: ProjectTally) => (consumer: string): Owner | null => {
  const project = tally.projectOf(consumer);
  return project === undefined ? null : { projectId: project, userId: null };
};

/**
 * The projects' side of a capacity source, narrowed to the projects the caller may see: each
 * project's usage is judged against that project alone (no user: a project's total spans its
 * users), as GET /usages judges it. A consumer of a project left out counts in no project's
 * share; the class's and aggregate's own figures stay whole, as a provider's usages do.
 */
export function visibleProjects(tally: ProjectTally, access: Access): Pick<CapacitySource, 'projectUsage' | 'projectOf'> {
  const usage = tally.usage();
  const judged = access.filter([...usage.keys()], (project) => ({ projectId: project, userId: null }));
  if (access.seesAll) return { projectUsage: usage, projectOf: (consumer) => tally.projectOf(consumer) };
  const visible = new Set(judged);
  return {
    projectUsage: new Map([...usage].filter(([project]) => visible.has(project))),
    projectOf: (consumer) => {
      const project = tally.projectOf(consumer);
      return project !== undefined && visible.has(project) ? project : undefined;
    },
  };
}
