import { Inject, Injectable, Optional } from '@nestjs/common';
import { Caller } from '../shared/caller.js';
import { CommandRunner, MAX_ATTEMPTS } from '../shared/command-runner.js';
import { DeciderStates } from '../shared/decider-states.js';
import { CLAIM_ATTEMPTS, ClaimPlan, asConcurrentUpdate, claimCommand } from './claim-command.js';

/**
 * How every claim is written (PUT and POST /allocations, DELETE, the merge patch, the reshaper):
 * its plan made a command (claimCommand), run by the CommandRunner with the configured number of
 * attempts, a lost race worded as upstream words it.
 */
@Injectable()
export class ClaimWriter {
  constructor(
    private readonly runner: CommandRunner, private readonly states: DeciderStates,
    @Optional() @Inject(CLAIM_ATTEMPTS) private readonly attempts: number = MAX_ATTEMPTS,
  ) {}

  /** `racePrefix`: the endpoint's own wording of a lost race, when it has one (the reshaper). */
  async write(caller: Caller, plan: ClaimPlan, racePrefix?: string): Promise<void> {
    const claim = await claimCommand(this.states, plan, this.attempts);
    await this.runner.run(caller, claim.decide, claim.options).catch(asConcurrentUpdate(racePrefix));
  }
}
