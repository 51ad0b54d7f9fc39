import { createServer } from 'node:net';
import { KurrentCapabilityError, checkKurrentDbAtStartup } from './startup-check.js';

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
    await expect(check).rejects.toThrow(new RegExp(`^cannot reach KurrentDB at kurrentdb://\\*\\*\\*@127\\.0\\.0\\.1:${port}\\?tls=false: .*UNAVAILABLE`));
  }, 15_000);
});
