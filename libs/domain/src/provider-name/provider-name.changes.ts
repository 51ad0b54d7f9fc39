import { ProviderState } from '../provider/provider.state.js';
import { ProviderNameCommand } from './provider-name.decider.js';

const nameOf = (state: ProviderState) => (state.status === 'active' ? state.name : undefined);

/**
 * What a provider's own decision means for the name streams: a creation reserves its name, a
 * deletion releases it, a rename does both (release first). A decision that keeps the name
 * touches no name stream, so the common writes (inventories, traits, claims) never contend there.
 */
export function providerNameChanges(before: ProviderState, after: ProviderState): ProviderNameCommand[] {
  const was = nameOf(before);
  const is = nameOf(after);
  if (was === is) return [];
  const holder = after.status !== 'absent' ? after : before;
  if (holder.status === 'absent') return [];
  const { uuid } = holder;
  const commands: ProviderNameCommand[] = [];
  if (was !== undefined) commands.push({ type: 'ReleaseProviderName', name: was, uuid });
  if (is !== undefined) commands.push({ type: 'ReserveProviderName', name: is, uuid });
  return commands;
}
