import { CanActivate, ExecutionContext, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestState } from '../request-state.js';
import { Access, notAllowed } from './access.js';
import { credentialsOf } from './credentials.js';
import { Enforcer } from './enforcer.js';
import type { Target } from '#platform/policy/evaluate.js';
import { PolicySettings } from '#platform/policy/rule-set.js';
import { policyForRoute, RoutePolicy } from './route-policies.js';

/** webob's GET.get: the last value of a repeated parameter; None when absent. */
function askedProject(request: FastifyRequest): string | null {
  const mark = request.url.indexOf('?');
  return new URLSearchParams(mark < 0 ? '' : request.url.slice(mark + 1)).getAll('project_id').at(-1) ?? null;
}

/**
 * upstream's context.can() at the top of each handler: after the route's microversion,
 * Accept and Content-Type checks (ApiRouteGuard runs first), before the body is read. A route
 * judged against its data gets an Access for its handler (access.ts) once the caller could see
 * at least its own project's.
 */
export class PolicyGuard implements CanActivate {
  private readonly logger = new Logger('policy');
  private readonly enforcer: Enforcer;

  constructor(settings: PolicySettings) {
    this.enforcer = new Enforcer(settings);
    if (this.enforcer.undefinedReferences.length > 0) {
      this.logger.warn(`Policies ${this.enforcer.undefinedReferences.join(', ')} reference a rule that is not defined; they deny`);
    }
    if (this.enforcer.unknownRules.length > 0) {
      this.logger.warn(`The policy file names rules no route checks: ${this.enforcer.unknownRules.join(', ')}`);
    }
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const pattern = request.routeOptions.url ?? request.url.split('?')[0];
    const policy = policyForRoute(request.method, pattern);
    if (policy === null) return true;
    if (policy === undefined) {
      // Fail closed: a route nobody mapped to a rule is nobody's to call.
      this.logger.error(`no policy rule is mapped to ${request.method} ${pattern}; refusing it`);
      throw notAllowed(`${request.method} ${pattern}`);
    }
    const state = requestState(request);
    const caller = state.caller;
    if (!caller) throw notAllowed(policy.rule);
    const creds = credentialsOf({ ...caller, systemScope: state.systemScope === true, domainId: state.domainId ?? null });
    const judge = (target: Target) => this.enforcer.authorize(policy.rule, target, creds).allowed;
    if (policy.target === 'data') {
      const access = new Access(policy.rule, judge, caller.projectId);
      if (!access.mayReadOwnProject(caller.userId)) throw notAllowed(policy.rule);
      state.access = access;
      return true;
    }
    if (!judge(targetFor(policy, request, caller))) throw notAllowed(policy.rule);
    return true;
  }
}

function targetFor(policy: RoutePolicy, request: FastifyRequest, caller: { projectId: string | null; userId: string | null }): Target {
  return policy.target === 'asked' ? { project_id: askedProject(request) } : { project_id: caller.projectId, user_id: caller.userId };
}
