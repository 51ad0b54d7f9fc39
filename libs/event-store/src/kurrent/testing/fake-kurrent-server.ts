import { createRequire } from 'node:module';

// The client's own copies of grpc-js and of its generated service definitions, so the fake
// speaks exactly the protocol the client under test expects.
const fromClient = createRequire(require.resolve('@kurrent/kurrentdb-client'));
const grpc = fromClient('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
const features = fromClient('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_pb.js');
const featuresService = fromClient('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_grpc_pb.js');
const streamsV2 = fromClient('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v2/streams/streams_grpc_pb.js');

export interface FakeKurrentServer {
  readonly url: string;
  /** Append sessions the fake received, with how many stream requests each carried. */
  readonly sessions: number[];
  stop(): Promise<void>;
}

type Callback = (error: { code: number; details: string } | null, value?: unknown) => void;

/**
 * Not a KurrentDB: just enough gRPC for the client's feature discovery and, for a "25.1"
 * server, an append session that refuses an empty session as the real one does. Lets the
 * start-up check run through the real client against an old and a new server.
 */
export async function startFakeKurrentServer(options: { version: string; multiStreamAppend: boolean }): Promise<FakeKurrentServer> {
  const server = new grpc.Server();
  const sessions: number[] = [];
  const methods: Array<[string, string]> = [['event_store.client.streams.Streams', 'Read'], ['event_store.client.streams.Streams', 'BatchAppend']];
  if (options.multiStreamAppend) methods.push(['kurrentdb.protocol.v2.streams.StreamsService', 'AppendSession']);
  server.addService(featuresService.ServerFeaturesService, {
    getSupportedMethods: (_call: unknown, callback: Callback) => {
      const supported = new features.SupportedMethods();
      supported.setEventStoreServerVersion(options.version);
      for (const [service, method] of methods) {
        const entry = new features.SupportedMethod();
        entry.setServiceName(service.toLowerCase());
        entry.setMethodName(method.toLowerCase());
        supported.addMethods(entry);
      }
      callback(null, supported);
    },
  });
  if (options.multiStreamAppend) {
    server.addService(streamsV2.StreamsServiceService, {
      appendSession: (call: NodeJS.EventEmitter, callback: Callback) => {
        let requests = 0;
        call.on('data', () => requests++);
        call.on('end', () => {
          sessions.push(requests);
          callback({ code: grpc.status.INVALID_ARGUMENT, details: 'Append session has no requests' });
        });
      },
      appendRecords: (_call: unknown, callback: Callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: 'not in this fake' }),
    });
  }
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  return {
    url: `kurrentdb://127.0.0.1:${port}?tls=false`,
    sessions,
    stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
