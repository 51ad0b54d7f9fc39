import { CanActivate, ExecutionContext, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PlacementError } from '../placement-error.js';
import { requestState } from '../request-state.js';
import { credentialsOf } from './credentials.js';
import { Enforcer } from './enforcer.js';
import { PolicySettings } from './rule-set.js';
import { policyForRoute } from './route-policies.js';

const notAllowed = (action: string) => new PlacementError(403, `Policy does not allow ${action} to be performed.`);

/**
 * upstream's context.can() at the top of each handler: after the route's microversion,
 * Accept and Content-Type checks (ApiRouteGuard runs first), before the body is read.
 */
export class PolicyGuard implements CanActivate {
  private readonly logger = new Logger('policy');
  private readonly enforcer: Enforcer;

  constructor(settings: PolicySettings) {
    this.enforcer = new Enforcer(settings);
    if (this.enforcer.undefinedReferences.length > 0) {
      this.logger.warn(`Policies ${this.enforcer.undefinedReferences.join(', ')} reference a rule that is not defined; they deny`);
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
    const mark = request.url.indexOf('?');
    const query = new URLSearchParams(mark < 0 ? '' : request.url.slice(mark + 1));
    const target = policy.target ? policy.target(query) : { project_id: caller.projectId, user_id: caller.userId };
    const creds = credentialsOf({ ...caller, systemScope: state.systemScope === true, domainId: state.domainId ?? null });
    const decision = this.enforcer.authorize(policy.rule, target, creds);
    if (!decision.allowed) throw notAllowed(policy.rule);
    return true;
  }
}
