import { conflict, notFound } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { ActiveProvider, ProviderState } from './provider.state.js';

export function requireActive(state: ProviderState, uuid: string): ActiveProvider {
  if (state.status !== 'active') throw notFound(`No resource provider with uuid ${uuid} found`);
  return state;
}

/** A generation the client sent that no longer matches is the only 409 a client causes by racing. */
export function requireGeneration(provider: ActiveProvider, generation: number | undefined, detail: string): void {
  if (generation !== undefined && generation !== provider.generation) {
    throw conflict(detail, ErrorCode.CONCURRENT_UPDATE);
  }
}

export const objectActionError = (action: string, reason: string) =>
  `Object action ${action} failed because: ${reason}`;
