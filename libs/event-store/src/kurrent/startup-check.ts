import { KurrentEventStore } from './kurrent-event-store.js';

export { KurrentCapabilityError } from './capabilities.js';

/**
 * What a process configured for KurrentDB runs before it serves anything: connect, prove the
 * server appends atomically across streams (KurrentDB 25.1+), let go. Throws
 * KurrentCapabilityError with a message for the operator otherwise.
 */
export async function checkKurrentDbAtStartup(url: string, timeoutMs = 10_000): Promise<void> {
  const store = KurrentEventStore.connect(url, { probeTimeoutMs: timeoutMs });
  try {
    await store.assertCapabilities();
  } finally {
    await store.close();
  }
}
