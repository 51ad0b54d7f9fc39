import { PassThrough } from 'node:stream';
import {
  StreamNotFoundError, WrongExpectedVersionError,
  type AllStreamResolvedEvent, type AllStreamSubscription, type AppendStreamRequest, type EventData,
  type MultiAppendResult, type ReadAllOptions, type ReadStreamOptions, type SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';
import { KurrentClient } from '../kurrent-client.js';

interface StoredRecord {
  readonly streamId: string;
  readonly revision: bigint;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: Record<string, unknown>;
  readonly position: bigint;
  readonly created: Date;
}

// Records take room in the log; positions are byte offsets, so they jump.
const RECORD_SIZE = 137n;

/**
 * A model of the KurrentDB client for specs, where no server can run: one ordered log,
 * atomic multi-stream sessions with the server's expected-revision rules, $all reads that
 * include their start position, stream reads that throw StreamNotFoundError, and catch-up
 * subscriptions that report checkpoints through the filter's callback. Its errors are the
 * client's own classes, built as the client builds them.
 */
export class InMemoryKurrentClient implements KurrentClient {
  readonly log: StoredRecord[] = [];
  private readonly subscribers = new Set<() => void>();
  private readonly live = new Set<PassThrough>();
  private nextPosition = 1000n;
  sessions = 0;

  async multiStreamAppend(requests: AppendStreamRequest[]): Promise<MultiAppendResult> {
    this.sessions++;
    assertStringMetadata(requests);
    if (requests.length === 0) throw new Error('3 INVALID_ARGUMENT: append session has no requests');
    const heads = requests.map((request) => {
      const head = this.head(request.streamName);
      const expected = request.expectedState;
      const ok = expected === 'any' || (expected === 'no_stream' ? head === -1n : expected === 'stream_exists' ? head >= 0n : head === expected);
      if (!ok) {
        throw new WrongExpectedVersionError(undefined, { streamName: request.streamName, expected, current: head === -1n ? 'no_stream' : head });
      }
      return head;
    });
    const responses = requests.map((request, i) => {
      let revision = heads[i];
      for (const event of request.events) this.write(request.streamName, ++revision, event);
      return { streamName: request.streamName, revision };
    });
    this.notify();
    return { position: this.log[this.log.length - 1].position, responses };
  }

  /** What another application or the server itself writes into the same log. */
  writeRaw(streamId: string, type: string, data: unknown): void {
    this.write(streamId, this.head(streamId) + 1n, { id: 'raw', contentType: 'application/json', type, data, metadata: undefined } as EventData);
    this.notify();
  }

  /**
   * As the client: from a revision inclusive (START, END or a number), forwards or backwards,
   * at most maxCount events; a stream never written throws StreamNotFoundError.
   */
  async *readStream(streamName: string, options: ReadStreamOptions = {}): AsyncIterable<{ event: AllStreamResolvedEvent['event'] }> {
    if (this.head(streamName) === -1n) throw new StreamNotFoundError(undefined, streamName);
    const backwards = options.direction === 'backwards';
    const at = options.fromRevision;
    // START is revision 0 and END the stream's last: forwards from END reads nothing new.
    const from = typeof at === 'bigint' ? at : at === 'end' ? (backwards ? this.head(streamName) : this.head(streamName) + 1n) : 0n;
    let records = this.log.filter((record) => record.streamId === streamName);
    if (backwards) records = records.reverse();
    let left = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    for (const record of records) {
      if (left === 0) return;
      if (backwards ? record.revision > from : record.revision < from) continue;
      left--;
      yield { event: resolved(record) };
    }
  }

  /**
   * As the client: forwards from a position inclusive, backwards from a position exclusive
   * (from END: the last record first), filter applied by the server, at most maxCount.
   */
  async *readAll(options: ReadAllOptions = {}): AsyncIterable<AllStreamResolvedEvent> {
    const from = options.fromPosition;
    const backwards = options.direction === 'backwards';
    const start = from === undefined || from === 'start' ? (backwards ? -1n : 0n) : from === 'end' ? this.nextPosition : from.prepare;
    let left = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const records = backwards ? [...this.log].reverse() : this.log;
    for (const record of records) {
      if (left === 0) return;
      if ((backwards ? record.position >= start : record.position < start) || !passes(options.filter, record)) continue;
      left--;
      yield { event: resolved(record) };
    }
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): AllStreamSubscription {
    const stream = Object.assign(new PassThrough({ objectMode: true }), {
      unsubscribe: async () => { this.subscribers.delete(pump); this.live.delete(stream); },
    });
    const from = options.fromPosition;
    let after = from === undefined || from === 'start' ? -1n : from === 'end' ? this.nextPosition : from.prepare;
    let filteredOut = 0;
    const everyWindow = 32 * (options.filter?.checkpointInterval ?? 1);
    const pump = () => {
      for (const record of this.log) {
        if (record.position <= after || stream.destroyed) continue;
        after = record.position;
        if (passes(options.filter, record)) stream.push({ event: resolved(record) });
        else if (++filteredOut % everyWindow === 0) {
          void options.filter?.checkpointReached?.(stream as unknown as AllStreamSubscription, { commit: record.position, prepare: record.position });
        }
      }
    };
    this.subscribers.add(pump);
    this.live.add(stream);
    setImmediate(pump);
    return stream as unknown as AllStreamSubscription;
  }

  /** The connection breaks: the client emits 'error' on each subscription without ending it. */
  dropSubscriptions(error: Error): void {
    for (const stream of this.live) stream.emit('error', error);
  }

  get liveSubscriptions(): number {
    return this.live.size;
  }

  async dispose(): Promise<void> {
    this.subscribers.clear();
  }

  private head(stream: string): bigint {
    let head = -1n;
    for (const record of this.log) if (record.streamId === stream) head = record.revision;
    return head;
  }

  private write(streamId: string, revision: bigint, event: EventData): void {
    // A session's records are implicitly committed: each is read back at {p, p}.
    const metadata = { ...(event.metadata as Record<string, unknown> | undefined), '$schema.name': event.type, '$schema.format': 'Json' };
    this.log.push({ streamId, revision, type: event.type, data: structuredClone(event.data), metadata, position: this.nextPosition, created: new Date() });
    this.nextPosition += RECORD_SIZE;
  }

  private notify(): void {
    for (const pump of this.subscribers) setImmediate(pump);
  }
}

function resolved(record: StoredRecord) {
  return {
    streamId: record.streamId, id: `${record.streamId}@${record.revision}`, revision: record.revision, type: record.type,
    isJson: true as const, data: structuredClone(record.data) as Record<string, unknown>, metadata: { ...record.metadata },
    created: record.created, position: { commit: record.position, prepare: record.position },
  };
}

function passes(filter: ReadAllOptions['filter'], record: StoredRecord): boolean {
  if (!filter) return true;
  const subject = filter.filterOn === 'eventType' ? record.type : record.streamId;
  return 'regex' in filter ? new RegExp(filter.regex).test(subject) : filter.prefixes.some((prefix) => subject.startsWith(prefix));
}

// The client's own check before a session is sent, with its message.
function assertStringMetadata(requests: AppendStreamRequest[]): void {
  for (const { events } of requests) for (const { metadata } of events) {
    if (metadata == null) continue;
    if (metadata instanceof Uint8Array || typeof metadata !== 'object' || Array.isArray(metadata)
      || Object.values(metadata).some((value) => typeof value !== 'string')) {
      throw new Error('multiStreamAppend requires metadata to be a plain object with string keys and string values.');
    }
  }
}
