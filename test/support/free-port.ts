import { createServer, Server } from 'node:net';

/**
 * A TCP port on which something can listen, as the kernel hands one out for port 0: a random one
 * may be the local end of a connection open elsewhere (most of the ephemeral range is in use on
 * a busy test run), and a server that cannot bind it will not start.
 */
export async function freePort(): Promise<number> {
  const server = await listening(0);
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** A plain TCP listener on every loopback address (IPv4 and IPv6) of `port`: a port held by someone else. */
export function listening(port: number): Promise<Server> {
  const server = createServer((socket) => socket.destroy());
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen({ port, host: '::', ipv6Only: false }, () => done(server));
  });
}
