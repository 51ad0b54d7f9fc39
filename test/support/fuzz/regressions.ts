import { RequestParts } from './seeds.js';

/**
 * Seed 20261124's request 47203 (mutations: a value of the wrong type, transfer-encoding: chunked,
 * the body `1`): the 100,000-request run's one unanswered request, replayed by fuzz.e2e-spec.ts.
 */
export const REQUEST_47203 = (provider: string): RequestParts => ({
  method: 'DELETE',
  segments: ['resource_providers', provider, 'inventories'],
  query: [],
  headers: [['x-auth-token', 'admin'], ['openstack-api-version', 'placement latest'], ['accept', 'application/json'], ['transfer-encoding', 'chunked']],
  body: { raw: Buffer.from('1') },
});
