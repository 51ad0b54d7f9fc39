import { ConfigError } from '#platform/config.js';
import { serverArgs } from './server-args.js';

describe('serverArgs', () => {
  it('reads --port and --host, spaced or with =, as PORT and HOST', () => {
    expect(serverArgs(['--port', '8780', '--host=0.0.0.0'])).toEqual({ env: { PORT: '8780', HOST: '0.0.0.0' }, help: false });
    expect(serverArgs([])).toEqual({ env: {}, help: false });
    expect(serverArgs(['--help']).help).toBe(true);
  });

  it('refuses an unknown argument or a flag without its value', () => {
    expect(() => serverArgs(['--bind', 'x'])).toThrow(ConfigError);
    expect(() => serverArgs(['--bind', 'x'])).toThrow(/unknown argument "--bind"/);
    expect(() => serverArgs(['--port'])).toThrow('--port needs a value');
  });
});
