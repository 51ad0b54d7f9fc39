/** One project's units of one class. */
export interface ProjectShare {
  readonly project_id: string;
  readonly used: number;
}

/** Units per class per project, added up as they come. */
export class ClassShares {
  private readonly byClass = new Map<string, Map<string, number>>();

  add(resourceClass: string, project: string, units: number): void {
    let projects = this.byClass.get(resourceClass);
    if (!projects) this.byClass.set(resourceClass, (projects = new Map()));
    projects.set(project, (projects.get(project) ?? 0) + units);
  }

  /** The `top` projects holding most of the class, most first; ties by project id, so the answer is stable. */
  top(resourceClass: string, top: number): ProjectShare[] {
    const projects = this.byClass.get(resourceClass);
    if (!projects) return [];
    return [...projects].filter(([, used]) => used > 0).map(([project_id, used]) => ({ project_id, used }))
      .sort((a, b) => b.used - a.used || a.project_id.localeCompare(b.project_id)).slice(0, top);
  }
}
