import type { ConsumerState } from '#domain/consumer/index.js';
import { holderOf, judgeConsumerWrite, OwnerAccess } from '../shared/owner-access.js';
import type { Targets } from './undo-facts.js';
import type { RestoreScope } from './undo-request.js';

/**
 * An undo writes each stream it takes back, and its plan shows them, so each is judged against
 * its owner before anything is planned. A consumer against the project and user that hold it now
 * and those it goes back to (one consumer nobody holds either way is no project's). Providers,
 * and an undo that takes back no consumer at all, are no project's data: only a caller who may
 * act for every project takes them back.
 */
export function judgeTargets(access: OwnerAccess, targets: Targets, consumersNow: Readonly<Record<string, ConsumerState>>): void {
  if (targets.providers.size > 0 || targets.consumers.size === 0) access.require(null);
  for (const [uuid, then] of targets.consumers) judgeConsumerWrite(access, holderOf(consumersNow[uuid]), holderOf(then));
}

/**
 * A restore naming providers or aggregates takes back providers, whatever else it resolves to:
 * refused at once to a caller judgeTargets would refuse, before their past is read.
 */
export function judgeScope(access: OwnerAccess, scope: RestoreScope): void {
  if (scope.providers.length > 0 || scope.aggregates.length > 0) access.require(null);
}
