import { RestoreTargets } from './restore-targets.js';
import { RevertTargets } from './revert-targets.js';
import { UndoService } from './undo.service.js';

export * from './undo-request.js';
export * from './undo-outcome.js';
export * from './revert-targets.js';
export * from './undo.service.js';

/** What the undo registers with Nest, beside the ledger's providers (it uses their StreamStates). */
export const UNDO_PROVIDERS = [RestoreTargets, RevertTargets, UndoService];
