import { PlacementError } from '../placement-error.js';
import type { Target } from '#platform/policy/evaluate.js';

/** Who owns a piece of data: a consumer's project and user. */
export interface Owner {
  readonly projectId: string;
  readonly userId: string | null;
}

/**
 * A project and user no caller has: a rule that passes for it passes whatever the data's owner
 * is (admin, service, "@"), so the caller sees every project's data.
 */
const NOBODY = '\u0000nobody';

const targetOf = (owner: Owner | null): Target => ({ project_id: owner?.projectId ?? null, user_id: owner?.userId ?? null });

export const notAllowed = (action: string) => new PlacementError(403, `Policy does not allow ${action} to be performed.`);

/**
 * The judgement of a data-targeted route (route-policies.ts): its rule, evaluated against the
 * owner of each thing the handler read instead of against the caller. A handler of such a route
 * must ask it before answering, and the reply of one that did not is refused (access-asked.ts).
 */
export class Access {
  /** The caller may see every project's data: no query needs narrowing, no owner looking at. */
  readonly seesAll: boolean;
  private asked = false;

  constructor(readonly rule: string, private readonly judge: (target: Target) => boolean, private readonly callerProject: string | null) {
    this.seesAll = judge(targetOf({ projectId: NOBODY, userId: NOBODY }));
  }

  /** Whether the caller could see at least its own project's data: if not, nothing is read at all. */
  mayReadOwnProject(callerUser: string | null): boolean {
    return this.seesAll || (this.callerProject !== null && this.judge(targetOf({ projectId: this.callerProject, userId: callerUser })));
  }

  get consulted(): boolean {
    return this.asked;
  }

  /**
   * The project a query may be narrowed to before its limit applies, or null for every project;
   * the rows it returns must still go through mayRead (a rule may also name the user).
   */
  narrowTo(): string | null {
    this.asked = true;
    if (this.seesAll) return null;
    // The guard lets no caller without a project this far (mayReadOwnProject): refuse, never narrow to nothing.
    if (this.callerProject === null) throw notAllowed(this.rule);
    return this.callerProject;
  }

  /** Data no project owns (a provider's, a class's) is for callers who see every project's. */
  mayRead(owner: Owner | null): boolean {
    this.asked = true;
    return this.seesAll || (owner !== null && this.judge(targetOf(owner)));
  }

  require(owner: Owner | null): void {
    if (!this.mayRead(owner)) throw notAllowed(this.rule);
  }

  filter<T>(items: readonly T[], ownerOf: (item: T) => Owner | null): T[] {
    this.asked = true;
    return this.seesAll ? [...items] : items.filter((item) => this.mayRead(ownerOf(item)));
  }
}
