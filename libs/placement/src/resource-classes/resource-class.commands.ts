import { Caller } from '../shared/caller.js';

/** POST /resource_classes. */
export class CreateCustomResourceClass {
  constructor(readonly name: string, readonly caller: Caller) {}
}

/** PUT /resource_classes/{name} from 1.7; answers whether the class was created by this call. */
export class EnsureCustomResourceClass {
  constructor(readonly name: string, readonly caller: Caller) {}
}

/** PUT /resource_classes/{name} with a body, 1.2-1.6. */
export class RenameCustomResourceClass {
  constructor(readonly name: string, readonly to: string, readonly caller: Caller) {}
}

export class DeleteCustomResourceClass {
  constructor(readonly name: string, readonly caller: Caller) {}
}
