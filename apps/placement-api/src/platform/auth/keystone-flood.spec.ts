import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Validation } from '#platform/auth/keystone-client.js';
import { KeystoneSettings } from '#platform/auth/keystone-settings.js';
import { KeystoneCalls, KeystoneStrategy, MAX_VALIDATIONS_IN_FLIGHT } from './keystone-strategy.js';

const settings: KeystoneSettings = {
  authUrl: 'http://keystone.invalid/v3', username: 'placement', password: 'pw', projectName: 'service',
  userDomainName: 'Default', projectDomainName: 'Default', cacheSize: 10_000, cacheTimeSeconds: 300,
};

/** A Keystone that takes a few milliseconds per validation and knows no token, counting what is asked at once. */
class SlowKeystone implements KeystoneCalls {
  inFlight = 0;
  mostInFlight = 0;
  validations = 0;

  async issueServiceToken() {
    return { token: 'service', issuedAt: 0, expiresAt: Date.now() + 3_600_000 };
  }

  async validate(): Promise<Validation> {
    this.validations++;
    this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 2));
    this.inFlight--;
    return { kind: 'invalid' };
  }
}

const withToken = (token: string) => ({ headers: { 'x-auth-token': token } }) as unknown as FastifyRequest;

describe('a flood of random tokens', () => {
  it('never has more than the bound of validations in flight at Keystone, and answers every request', async () => {
    const keystone = new SlowKeystone();
    const auth = new KeystoneStrategy(settings, keystone);
    const tokens = Array.from({ length: 1_000 }, () => randomBytes(24).toString('base64url'));
    const answers = await Promise.all(tokens.map((token) => auth.authenticate(withToken(token))));
    expect(answers.every((answer) => answer === 'unauthorized')).toBe(true);
    expect(keystone.validations).toBe(1_000);
    expect(keystone.mostInFlight).toBe(MAX_VALIDATIONS_IN_FLIGHT);
  });

  it('sends a repeated bad token to Keystone once, however many requests carry it', async () => {
    const keystone = new SlowKeystone();
    const auth = new KeystoneStrategy(settings, keystone);
    const token = randomBytes(24).toString('base64url');
    await Promise.all(Array.from({ length: 50 }, () => auth.authenticate(withToken(token))));
    await auth.authenticate(withToken(token));
    expect(keystone.validations).toBe(1);
  });
});
