import { Version } from '../platform/microversion.js';
import type { ProviderRow } from '#placement/index.js';

export const providerUrl = (uuid: string) => `/resource_providers/${uuid}`;

function links(uuid: string, version: Version) {
  const self = providerUrl(uuid);
  const rels = ['inventories', 'usages'];
  if (version.matches('1.1')) rels.push('aggregates');
  if (version.matches('1.6')) rels.push('traits');
  if (version.matches('1.11')) rels.push('allocations');
  return [{ rel: 'self', href: self }, ...rels.map((rel) => ({ rel, href: `${self}/${rel}` }))];
}

export function presentProvider(provider: ProviderRow, version: Version) {
  const body: Record<string, unknown> = {
    uuid: provider.uuid,
    name: provider.name,
    generation: provider.generation,
    links: links(provider.uuid, version),
  };
  if (version.matches('1.14')) {
    body.parent_provider_uuid = provider.parent_provider_uuid;
    body.root_provider_uuid = provider.root_provider_uuid;
  }
  return body;
}
