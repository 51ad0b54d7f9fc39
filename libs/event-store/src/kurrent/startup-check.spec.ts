import { createServer } from 'node:net';
import { KurrentCapabilityError, checkKurrentDbAtStartup } from './startup-check.js';
import { FakeKurrentServer, startFakeKurrentServer } from './testing/fake-kurrent-server.js';

/** A loopback port nothing listens on: bound, then released. */
const closedPort = () => new Promise<number>((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});

// With the real client: what start-up reports when no KurrentDB answers at the configured address.
describe('KurrentDB start-up check with the real client', () => {
  it('stops with "cannot reach" when nothing listens there', async () => {
    const port = await closedPort();
    const check = checkKurrentDbAtStartup(`kurrentdb://admin:secret@127.0.0.1:${port}?tls=false`, 5000);
    await expect(check).rejects.toBeInstanceOf(KurrentCapabilityError);
    await expect(check).rejects.toThrow(new RegExp(`^cannot reach KurrentDB at kurrentdb://admin:\\*\\*\\*@127\\.0\\.0\\.1:${port}\\?tls=false: .*UNAVAILABLE`));
  }, 15_000);

  describe('against a gRPC fake that answers feature discovery as a server would', () => {
    let server: FakeKurrentServer | undefined;
    afterEach(async () => server?.stop());

    it('refuses a 24.10 server, which lists no multi-stream append, before sending any session', async () => {
      server = await startFakeKurrentServer({ version: '24.10.0', multiStreamAppend: false });
      await expect(checkKurrentDbAtStartup(server.url, 5000)).rejects.toThrow(
        `KurrentDB at ${server.url} has no atomic multi-stream append (it needs KurrentDB 25.1 or later)`,
      );
      expect(server.sessions).toEqual([]);
    }, 15_000);

    it('passes a 25.1 server, whose append session refuses the empty probe and writes nothing', async () => {
      server = await startFakeKurrentServer({ version: '25.1.0', multiStreamAppend: true });
      await expect(checkKurrentDbAtStartup(server.url, 5000)).resolves.toBeUndefined();
      expect(server.sessions).toEqual([0]);
    }, 15_000);
  });
});
