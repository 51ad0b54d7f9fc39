import { isLoopbackHost } from './secure-default.js';

describe('which hosts are loopback (noauth2 is the default there only)', () => {
  it('counts 127.0.0.0/8, ::1 in any spelling, and localhost', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '127.255.255.255', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST']) {
      expect([host, isLoopbackHost(host)]).toEqual([host, true]);
    }
  });

  it('does not count every interface, a LAN address, or any other name', () => {
    for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.20', '128.0.0.1', '::2', 'fe80::1', '::ffff:10.0.0.1',
      'placement.example.com', 'localhost.example.com', 'my-laptop', '127.0.0.1.nip.io', '']) {
      expect([host, isLoopbackHost(host)]).toEqual([host, false]);
    }
  });
});
