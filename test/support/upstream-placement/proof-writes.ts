import { PlacementClient } from './placement-client.js';
import { CONSUMER, PROJECT, RP, USER } from './proof-fixture.js';

export interface WriteOutcome {
  readonly what: string;
  readonly status: number;
  /** A success's body, or an error's code: wording aside, what a client acts on. */
  readonly answer: unknown;
}

/**
 * Writes whose outcome depends on state no GET shows: deleted and emptied consumers (upstream
 * forgets them, so a null consumer_generation creates them anew), an incomplete consumer's
 * generation, name uniqueness, classes and traits in use, a parent with children, a deleted
 * provider's uuid. Asked of the old server and the new one, the outcomes must be the same.
 */
export async function applyWriteProbes(api: PlacementClient): Promise<WriteOutcome[]> {
  const out: WriteOutcome[] = [];
  const probe = async (what: string, method: string, path: string, version: string, body?: unknown) => {
    const reply = await api.call(method, path, version, body);
    const answer = reply.status >= 400 ? reply.body?.errors?.map((e: any) => e.code) : reply.body;
    out.push({ what, status: reply.status, answer });
  };
  const claim = (rp: string, resources: Record<string, number>, generation: number | null, project: string, user: string) => ({
    allocations: { [rp]: { resources } }, consumer_generation: generation, project_id: project, user_id: user, consumer_type: 'INSTANCE',
  });
  await probe('re-create a deleted consumer with consumer_generation null', 'PUT', `/allocations/${CONSUMER.gone1}`, '1.38',
    claim(RP.cn2, { DISK_GB: 1 }, null, PROJECT.beta, USER.u2));
  await probe('re-create an emptied consumer with consumer_generation null', 'PUT', `/allocations/${CONSUMER.empty1}`, '1.38',
    claim(RP.cn1, { DISK_GB: 1 }, null, PROJECT.gamma, USER.u3));
  await probe('write a live consumer with consumer_generation null', 'PUT', `/allocations/${CONSUMER.mig1}`, '1.38',
    claim(RP.cn2, { VCPU: 1 }, null, PROJECT.beta, USER.u1));
  await probe('complete the incomplete consumer (written at 1.0) at generation 1', 'PUT', `/allocations/${CONSUMER.old1}`, '1.28', {
    allocations: { [RP.legacy]: { resources: { MEMORY_MB: 256 } } }, consumer_generation: 1, project_id: PROJECT.gamma, user_id: USER.u3,
  });
  await probe('the completed consumer', 'GET', `/allocations/${CONSUMER.old1}`, '1.38');
  await probe('delete a parent provider', 'DELETE', `/resource_providers/${RP.cn4}`, '1.38');
  await probe('delete a provider with allocations', 'DELETE', `/resource_providers/${RP.cn3nic}`, '1.38');
  await probe('delete a resource class in use', 'DELETE', '/resource_classes/CUSTOM_PROOF_BW', '1.38');
  await probe('delete a trait in use', 'DELETE', '/traits/CUSTOM_PROOF_GOLD', '1.38');
  await probe('create a provider under a taken name', 'POST', '/resource_providers', '1.38', { name: 'proof-cn4' });
  await probe('rename a provider to its old name', 'PUT', `/resource_providers/${RP.cn4}`, '1.38', { name: 'proof-cn4-old' });
  await probe('create a provider with a deleted provider\'s uuid', 'POST', '/resource_providers', '1.38', { name: 'proof-gone', uuid: RP.gone });
  await probe('re-create a deleted resource class', 'PUT', '/resource_classes/CUSTOM_PROOF_DOOMED', '1.38');
  // cn4: VCPU 4, 1 reserved, ratio 16 (the API's default max_unit): 48 usable, 1 used.
  await probe('claim more than a provider has left', 'POST', '/allocations', '1.38', {
    [CONSUMER.inst1]: claim(RP.cn4, { VCPU: 48 }, 1, PROJECT.alpha, USER.u1),
  });
  return out;
}
