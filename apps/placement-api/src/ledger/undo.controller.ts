import { Controller, HttpCode, Post } from '@nestjs/common';
import type { Caller } from '#placement/index.js';
import { RestoreScope, UndoOptions, UndoService } from '#placement/undo/index.js';
import { canonicalUuid } from '../allocations/allocation-body.js';
import { ApiRoute } from '../platform/api-route.js';
import { extractJson } from '../platform/json-body.js';
import { httpBadRequest } from '../platform/placement-error.js';
import type { Access } from '../platform/policy/access.js';
import { Judged, RawBody, Who } from '../platform/request-params.js';
import { parseAsOfParam } from './ledger-params.js';
import { presentUndo } from './undo.presenter.js';
import { RESTORE_BODY, REVERT_BODY } from './undo.schemas.js';

interface ApplyBody { apply?: boolean; plan_hash?: string }
interface RevertBody extends ApplyBody { request_id: string; force_streams?: string[] }
interface RestoreBody extends ApplyBody {
  as_of: string; providers?: string[]; tree?: boolean; with_consumers?: boolean; consumers?: string[]; projects?: string[]; aggregates?: string[];
}

function applyOptions(body: ApplyBody): UndoOptions {
  if (body.apply && !body.plan_hash) throw httpBadRequest('apply needs the plan_hash of the plan it applies: plan first (apply false), read it, then apply');
  return { apply: body.apply === true, planHash: body.plan_hash };
}

/**
 * Undoing an incident: revert one request, or restore streams to a moment. Each answers the plan;
 * with apply and the plan's hash, it appends exactly that plan, as one write of its own. Both are
 * judged against the owners of the streams they take back (route-policies.ts, undo-access.ts).
 */
@Controller('ledger')
export class LedgerUndoController {
  constructor(private readonly undo: UndoService) {}

  @Post('revert')
  @HttpCode(200)
  @ApiRoute({ consumes: true, produces: true })
  async revert(@Who() caller: Caller, @Judged() access: Access, @RawBody() raw: string | undefined) {
    const body = extractJson<RevertBody>(raw, REVERT_BODY);
    const options = applyOptions(body);
    const outcome = await this.undo.run({ kind: 'revert', requestId: body.request_id, forceStreams: body.force_streams ?? [] }, caller, options, access);
    return presentUndo(outcome, caller.requestId);
  }

  @Post('restore')
  @HttpCode(200)
  @ApiRoute({ consumes: true, produces: true })
  async restore(@Who() caller: Caller, @Judged() access: Access, @RawBody() raw: string | undefined) {
    const body = extractJson<RestoreBody>(raw, RESTORE_BODY);
    const options = applyOptions(body);
    const asOf = parseAsOfParam(body.as_of);
    const scope: RestoreScope = {
      providers: (body.providers ?? []).map(canonicalUuid), tree: body.tree === true, withConsumers: body.with_consumers !== false,
      consumers: (body.consumers ?? []).map(canonicalUuid), projects: body.projects ?? [], aggregates: (body.aggregates ?? []).map(canonicalUuid),
    };
    if (scope.providers.length + scope.consumers.length + scope.projects.length + scope.aggregates.length === 0) {
      throw httpBadRequest('A restore needs a scope: providers, consumers, projects or aggregates');
    }
    if (scope.tree && scope.providers.length === 0) throw httpBadRequest('tree restores the trees of the providers named: name at least one');
    return presentUndo(await this.undo.run({ kind: 'restore', asOf, scope }, caller, options, access), caller.requestId);
  }
}
