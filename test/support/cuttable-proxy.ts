import { createServer, Server, Socket } from 'node:net';

/** A TCP proxy in front of PostgreSQL that a test can cut and restore, as a network or a server would fail. */
export interface CuttableProxy {
  readonly port: number;
  /** Drops every open connection and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCuttableProxy(targetHost: string, targetPort: number): Promise<CuttableProxy> {
  const open = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () => new Promise<void>((done, fail) => {
    server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        open.add(socket);
        socket.on('close', () => open.delete(socket));
        socket.on('error', () => { client.destroy(); upstream.destroy(); });
      }
      client.pipe(upstream).pipe(client);
    });
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      port = (server!.address() as { port: number }).port;
      done();
    });
  });
  const stop = () => new Promise<void>((done) => {
    for (const socket of open) socket.destroy();
    if (!server) return done();
    server.close(() => done());
    server = undefined;
  });
  await listen();
  return { get port() { return port; }, cut: stop, restore: listen, close: stop };
}

/** A proxy in front of the tests' PostgreSQL, and `databaseUrl` rewritten to go through it. */
export async function proxiedDatabase(databaseUrl: string, adminUrl: string): Promise<{ proxy: CuttableProxy; url: string }> {
  const target = new URL(adminUrl);
  const proxy = await startCuttableProxy(target.hostname, Number(target.port || 5432));
  const through = new URL(databaseUrl);
  through.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: through.toString() };
}
