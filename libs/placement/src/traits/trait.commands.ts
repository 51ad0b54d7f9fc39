import { Caller } from '../shared/caller.js';

/** PUT /traits/{name}: create-if-absent; answers whether this call created it. */
export class EnsureCustomTrait {
  constructor(readonly name: string, readonly caller: Caller) {}
}

export class DeleteCustomTrait {
  constructor(readonly name: string, readonly caller: Caller) {}
}
