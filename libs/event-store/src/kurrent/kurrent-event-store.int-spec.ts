import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { CONTRACT_LOOKUPS } from '../contract/read-side.contract.js';
import { redactUrl } from '#config-file/redact-url.js';
import { KurrentEventStore } from './kurrent-event-store.js';

/**
 * The shared contract on a real KurrentDB (25.1 or later), whenever one is configured:
 *   KURRENTDB_CONNECTION_STRING='kurrentdb://127.0.0.1:2113?tls=false' npx jest libs/event-store/src/kurrent
 * Without it the suite is reported as skipped, never as passed.
 */
const url = process.env.KURRENTDB_CONNECTION_STRING;

if (!url) {
  describe.skip('event store contract: KurrentDB — SKIPPED, KURRENTDB_CONNECTION_STRING is not set (no KurrentDB server here)', () => {
    it('runs the shared event store contract against a real KurrentDB 25.1+', () => undefined);
  });
} else {
  describeEventStoreContract(`KurrentDB at ${redactUrl(url)}`, async () => {
    const store = KurrentEventStore.connect(url, { retryDelayMs: 100, lookups: CONTRACT_LOOKUPS });
    // A server older than 25.1 fails here, with the message the service would stop with.
    await store.assertCapabilities();
    return { store, close: () => store.close() };
  });
}
