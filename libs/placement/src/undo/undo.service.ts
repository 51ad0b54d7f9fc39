import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode, ProviderEvent, ProviderState, conflict, decideProviderName, evolveProvider, notFound, planUndo,
  providerNameChanges, providerNameDecider, providerNameStream,
} from '#domain/index.js';
import { ConsumerState } from '#domain/consumer/index.js';
import { EVENT_STORE, EventStore } from '#event-store/index.js';
import { describeAsOf } from '../ledger/as-of.js';
import { ProviderLookups } from '../read-models/provider-lookups.js';
import { Attempt } from '../shared/attempt.js';
import { Caller } from '../shared/caller.js';
import { CommandRunner } from '../shared/command-runner.js';
import { OwnerAccess } from '../shared/owner-access.js';
import { READ_DB, ReadDb } from '../shared/read-db.js';
import { RestoreTargets } from './restore-targets.js';
import { judgeScope, judgeTargets } from './undo-access.js';
import { LaterWrite, RequestStreams, RevertTargets } from './revert-targets.js';
import { gatherUndoInput, Targets } from './undo-facts.js';
import { outcomeOf, UndoOutcome } from './undo-outcome.js';
import { UndoOptions, UndoRequest } from './undo-request.js';

/**
 * Revert a request, restore streams to a moment: plan always; apply only the plan whose hash the
 * operator read. Both are writes like any other, through the one CommandRunner: decided on the
 * streams' loaded states, appended in one atomic append expecting their revisions, attributed to
 * the caller under this request's own id (so a revert can itself be reverted).
 */
@Injectable()
export class UndoService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: ReadDb,
    private readonly runner: CommandRunner,
    private readonly lookups: ProviderLookups,
    private readonly restores: RestoreTargets,
    private readonly reverts: RevertTargets,
  ) {}

  /** `access` judges every stream the undo would take back against its owner (undo-access.ts), before it is planned. */
  async run(request: UndoRequest, caller: Caller, options: UndoOptions, access: OwnerAccess): Promise<UndoOutcome> {
    if (request.kind === 'restore') judgeScope(access, request.scope);
    const reverted = request.kind === 'revert' ? await this.requestStreams(request.requestId, access) : null;
    const targets: Targets = request.kind === 'revert' ? revertTargetsOf(reverted!) : await this.restores.resolve(request.scope, request.asOf);
    const point = request.kind === 'revert' ? request.requestId : describeAsOf(request.asOf);
    const metadata: Record<string, string> = request.kind === 'revert'
      ? { operation: 'revert', reverted_request: request.requestId } : { operation: 'restore', restored_to: point };
    return this.runner.run(caller, async (attempt) => {
      const input = await gatherUndoInput(request.kind, targets, attempt, this.store, this.lookups, this.db);
      judgeTargets(access, targets, input.consumersNow);
      const later = reverted ? await this.laterWrites(reverted) : [];
      const forcing = new Set(request.kind === 'revert' ? request.forceStreams : []);
      const isForced = (write: LaterWrite) => forcing.has(write.stream) || forcing.has(write.stream.replace(/^(provider|consumer)-/, ''));
      const outcome = outcomeOf(request.kind, point, planUndo(input), later.filter((w) => !isForced(w)), later.filter(isForced));
      if (!options.apply) return outcome;
      if (options.planHash !== outcome.hash) {
        throw conflict(`The plan changed since it was printed (plan hash ${outcome.hash}, not ${options.planHash}): plan again and read it before applying.`, ErrorCode.CONCURRENT_UPDATE);
      }
      if (outcome.status === 'refused') throw conflict(refusal(outcome), ErrorCode.CONCURRENT_UPDATE);
      if (outcome.status === 'nothing_to_do') return outcome;
      await write(attempt, outcome, input.providersNow);
      return { ...outcome, applied: true };
    }, { metadata });
  }

  private async requestStreams(requestId: string, access: OwnerAccess): Promise<RequestStreams> {
    const events = await this.store.readRequest(requestId);
    if (events.length === 0) {
      // Only to a caller who may act for every project: to the others, a request of another
      // project's and one that never was look alike.
      access.require(null);
      throw notFound(`No events were written by request ${requestId}`);
    }
    return this.reverts.resolve(events);
  }

  private async laterWrites(reverted: RequestStreams): Promise<LaterWrite[]> {
    const streams = [...reverted.providers.filter((p) => p.ownChanges), ...reverted.consumers];
    return (await Promise.all(streams.map((stream) => this.reverts.laterWrites(stream)))).flat();
  }
}

/** A provider the request only claimed on is not a target: its side of the claim follows the consumers. */
function revertTargetsOf(reverted: RequestStreams): Targets {
  return {
    providers: new Map<string, ProviderState>(reverted.providers.filter((p) => p.ownChanges).map((p) => [p.uuid, p.before])),
    consumers: new Map<string, ConsumerState>(reverted.consumers.map((c) => [c.uuid, c.before])),
  };
}

function refusal(outcome: UndoOutcome): string {
  const later = outcome.conflicts.map((w) => `${w.stream} revision ${w.revision} (${w.type}) by request ${w.request_id} of user ${w.user_id} at ${w.time}`);
  const problems = outcome.plan.streams.flatMap((s) => s.problems.map((why) => `${s.stream}: ${why}`));
  const parts = [
    ...(later.length > 0 ? [`changed since by ${later.join('; ')} (force_streams names the streams to take back anyway)`] : []),
    ...(problems.length > 0 ? [`cannot take back ${problems.join('; ')}`] : []),
  ];
  return `Unable to revert request ${outcome.point}: ${parts.join('; ')}.`;
}

/** Every stream's events, and the name streams their providers' names move on (reserved, released), in one attempt. */
async function write(attempt: Attempt, outcome: UndoOutcome, providersNow: Readonly<Record<string, ProviderState>>): Promise<void> {
  for (const stream of outcome.plan.streams) {
    if (stream.events.length === 0) continue;
    attempt.write(stream.stream, stream.events);
    if (stream.kind !== 'provider') continue;
    const now = providersNow[stream.uuid];
    const next = (stream.events as ProviderEvent[]).reduce(evolveProvider, now);
    for (const command of providerNameChanges(now, next)) {
      const names = providerNameStream(command.name);
      attempt.write(names, decideProviderName(command, await attempt.load(names, providerNameDecider)));
    }
  }
}
