import { BenchClient } from '../http.js';
import { Flavor, queryOf } from './flavors.js';

/**
 * How many candidates each flavor's question finds before the storm, on one server: both servers
 * hold the same cloud, so they must find as many (up to the limit), or the comparison is void.
 */
export async function candidatesPerFlavor(client: BenchClient, mix: readonly Flavor[]): Promise<Record<string, number | string>> {
  const counts: Record<string, number | string> = {};
  for (const flavor of mix) {
    const reply = await client.call('GET', queryOf(flavor));
    counts[flavor.name] = reply.status === 200 ? (JSON.parse(reply.body).allocation_requests as unknown[]).length : `status ${reply.status}`;
  }
  return counts;
}

/** The flavors whose counts differ between two servers, as `name ours/upstream`. */
export function countDifferences(a: Readonly<Record<string, number | string>>, b: Readonly<Record<string, number | string>>): string[] {
  return Object.keys(a).filter((name) => a[name] !== b[name]).map((name) => `${name} ${a[name]}/${b[name]}`);
}
