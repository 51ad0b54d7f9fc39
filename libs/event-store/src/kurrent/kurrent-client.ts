import {
  KurrentDBClient,
  type AllStreamResolvedEvent, type AllStreamSubscription, type AppendStreamRequest, type MultiAppendResult,
  type ReadAllOptions, type ReadStreamOptions, type ResolvedEvent, type SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';

/**
 * The part of the KurrentDB client the adapter uses. The adapter takes it through its
 * constructor, so specs pass a fake with the same method names and no server is needed.
 */
export interface KurrentClient {
  multiStreamAppend(requests: AppendStreamRequest[]): Promise<MultiAppendResult>;
  readStream(streamName: string, options?: ReadStreamOptions): AsyncIterable<ResolvedEvent>;
  readAll(options?: ReadAllOptions): AsyncIterable<AllStreamResolvedEvent>;
  subscribeToAll(options?: SubscribeToAllOptions): AllStreamSubscription;
  dispose(): Promise<void>;
}

export function connectKurrent(url: string): KurrentClient {
  return KurrentDBClient.connectionString(url);
}
