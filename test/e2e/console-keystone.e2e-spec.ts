import type { BrowserContext } from 'playwright-core';
import { buildConsoleFixture, ConsoleFixture } from '../support/console-fixture.js';
import { expectOnlyThisService, openConsole, settled, VIEWPORT, watch } from '../support/console-page.js';
import { chromiumAvailable, chromiumSkipReason, launchChromium, tabTo } from '../support/headless-chromium.js';
import { FakeKeystone } from '../support/keystone/fake-keystone.js';
import { startTestApp, TestApp } from '../support/test-app.js';

const suite = chromiumAvailable ? describe : describe.skip;

/**
 * The console with PLACEMENT_AUTH_STRATEGY=keystone (against the recorded Keystone): the page
 * sends the Keystone token the operator pastes as X-Auth-Token, as it sends noauth2's.
 */
suite(`operators' console with a Keystone token${chromiumAvailable ? '' : ` (${chromiumSkipReason})`}`, () => {
  let keystone: FakeKeystone;
  let app: TestApp;
  let cloud: ConsoleFixture;
  let context: BrowserContext;
  let closeBrowser: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    keystone = await FakeKeystone.start();
    app = await startTestApp(keystone.serviceEnv());
    const admin = keystone.token('admin');
    cloud = await buildConsoleFixture((method, path, options) => app.request(method, path, { ...options, token: admin }));
    ({ context, close: closeBrowser } = await launchChromium('placement-console-keystone-', VIEWPORT));
  }, 90_000);
  afterAll(async () => {
    await closeBrowser?.();
    await app?.close();
    await keystone?.close();
  });

  it('draws a tree and a consumer with an admin\'s Keystone token, sent on every call', async () => {
    const token = keystone.token('admin');
    const watched = await watch(context);
    const { page } = watched;
    await openConsole(watched, app.baseUrl, token);
    await tabTo(page, '#provider-form input[name=provider]');
    await page.keyboard.type(`cn1-${cloud.suffix}`);
    await page.keyboard.press('Enter');
    expect(await settled(page, 'provider-status')).toBe(`Tree of cn1-${cloud.suffix}: 3 providers.`);
    await tabTo(page, `button.open-consumer[data-consumer="${cloud.consumers.vm3}"]`);
    await page.keyboard.press('Enter');
    expect(await settled(page, 'consumer-status')).toBe(`Consumer ${cloud.consumers.vm3}: 1 event.`);
    // The caller recorded is the Keystone token's user, not a noauth2 name.
    const [event] = (await app.request('GET', `/ledger/consumers/${cloud.consumers.vm3}/history`, { token })).body.events;
    expect(await page.textContent('#consumer-timeline .who')).toContain(`by user ${event.user_id}, project ${event.project_id}`);
    expect(event.user_id).not.toBe('admin');
    expectOnlyThisService(watched, app.baseUrl, token);
    const calls = watched.requests.filter((r) => r.url.includes('/ledger/resource_providers/') || r.url.includes('/allocations/'));
    expect(calls.length).toBeGreaterThanOrEqual(2);
    await page.close();
  }, 60_000);

  it('shows Keystone\'s refusal of a bogus token and a reader\'s 403 on a provider listing', async () => {
    for (const [token, status] of [['bogus', /^401 The request you have made requires authentication\./], [keystone.token('reader'), /^403 /]] as const) {
      const watched = await watch(context);
      const { page } = watched;
      await openConsole(watched, app.baseUrl, token);
      await tabTo(page, '#provider-form input[name=provider]');
      await page.keyboard.type(`cn1-${cloud.suffix}`);
      await page.keyboard.press('Enter');
      expect(await settled(page, 'provider-status')).toMatch(status);
      expect(await page.$$('#provider-tree section')).toHaveLength(0);
      expectOnlyThisService(watched, app.baseUrl, token);
      await page.close();
    }
  }, 60_000);
});
