import { UnavailableError } from '@kurrent/kurrentdb-client';
import type { KurrentClient } from '#event-store/kurrent/kurrent-client.js';
import { InMemoryKurrentClient } from '#event-store/kurrent/testing/in-memory-kurrent-client.js';

/**
 * The in-memory client that can lose its server. While `down`, calls fail as the real client's
 * do against a closed port (measured with KurrentDB's client 1.3 and no server): reads throw
 * UnavailableError, an append rejects with gRPC's "14 UNAVAILABLE: No connection established".
 * A live subscription stays silent, as the real one waits to reconnect.
 */
export class UnreachableKurrentClient implements KurrentClient {
  down = false;
  constructor(readonly inner = new InMemoryKurrentClient()) {}

  multiStreamAppend(...args: Parameters<KurrentClient['multiStreamAppend']>): ReturnType<KurrentClient['multiStreamAppend']> {
    if (this.down) {
      return Promise.reject(Object.assign(new Error('14 UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:2113.'), { code: 14 }));
    }
    return this.inner.multiStreamAppend(...args);
  }

  readStream(...args: Parameters<KurrentClient['readStream']>): ReturnType<KurrentClient['readStream']> {
    return this.down ? failing() : this.inner.readStream(...args);
  }

  readAll(...args: Parameters<KurrentClient['readAll']>): ReturnType<KurrentClient['readAll']> {
    return this.down ? failing() : this.inner.readAll(...args);
  }

  subscribeToAll(...args: Parameters<KurrentClient['subscribeToAll']>): ReturnType<KurrentClient['subscribeToAll']> {
    return this.inner.subscribeToAll(...args);
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

async function* failing(): AsyncGenerator<never> {
  throw new UnavailableError();
}
