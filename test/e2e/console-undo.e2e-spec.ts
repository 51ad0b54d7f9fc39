import type { BrowserContext, Page } from 'playwright-core';
import { buildConsoleFixture, ConsoleFixture } from '../support/console-fixture.js';
import { openConsole, selectView, settled, VIEWPORT, watch } from '../support/console-page.js';
import { chromiumAvailable, chromiumSkipReason, launchChromium, tabTo } from '../support/headless-chromium.js';
import { startTestApp, TestApp } from '../support/test-app.js';

declare const document: any;

const suite = chromiumAvailable ? describe : describe.skip;
if (!chromiumAvailable) console.warn(`console undo e2e ${chromiumSkipReason}`);

/** The plan the console shows: its status line and each stream's line. */
async function shownPlan(page: Page, container = '#consumer-undo') {
  await page.waitForSelector(`${container} section.undo-plan`);
  return {
    status: await page.getAttribute(`${container} section.undo-plan`, 'data-status'),
    streams: await page.$$eval(`${container} .plan-streams li`, (items) => items.map((li: any) => li.textContent)),
  };
}

suite(`console: restore to here and revert this request, on consumer and provider timelines${chromiumAvailable ? '' : ` (${chromiumSkipReason})`}`, () => {
  let app: TestApp;
  let cloud: ConsoleFixture;
  let context: BrowserContext;
  let closeBrowser: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    app = await startTestApp();
    cloud = await buildConsoleFixture((method, path, options) => app.request(method, path, options));
    ({ context, close: closeBrowser } = await launchChromium('placement-console-undo-', VIEWPORT));
  }, 90_000);
  afterAll(async () => {
    await closeBrowser?.();
    await app?.close();
  });

  const held = async (vm: string) => Object.fromEntries(Object.entries((await app.request('GET', `/allocations/${vm}`)).body.allocations)
    .map(([rp, a]: [string, any]) => [rp, a.resources]));

  async function openConsumer(token: string, vm: string) {
    const watched = await watch(context);
    await openConsole(watched, app.baseUrl, token);
    await selectView(watched.page, 'consumer');
    await tabTo(watched.page, '#consumer-form input[name=consumer]');
    await watched.page.keyboard.type(vm);
    await watched.page.keyboard.press('Enter');
    await settled(watched.page, 'consumer-status');
    return watched.page;
  }

  it('plans the restore of a consumer to a timeline entry, shows it, and applies it with its hash', async () => {
    const { vm1 } = cloud.consumers;
    const { cn1, numa0 } = cloud.providers;
    const page = await openConsumer('admin', vm1);
    await tabTo(page, '#consumer-timeline > li:first-child button.restore-here');
    await page.keyboard.press('Enter');
    const plan = await shownPlan(page);
    expect(plan.status).toBe('ready');
    expect(plan.streams).toContain(`consumer-${vm1}: + ConsumerAllocationsReplaced`);
    expect(await held(vm1)).toEqual({ [numa0]: { VCPU: 4 }, [cn1]: { DISK_GB: 20, MEMORY_MB: 2048 } });
    await page.click('#consumer-undo button.apply-plan');
    await page.waitForSelector('#consumer-undo p.applied');
    expect(await page.textContent('#consumer-undo p.applied')).toMatch(/^Applied as request req-[0-9a-f-]{36}\.$/);
    expect(await held(vm1)).toEqual({ [numa0]: { VCPU: 2 }, [cn1]: { MEMORY_MB: 2048 } });
    expect(await settled(page, 'consumer-status')).toBe(`Consumer ${vm1}: 4 events.`);
    await page.close();
  }, 60_000);

  it('plans the revert of the request that wrote an entry (here the restore), and applies it', async () => {
    const { vm1 } = cloud.consumers;
    const { cn1, numa0 } = cloud.providers;
    const page = await openConsumer('admin', vm1);
    await tabTo(page, '#consumer-timeline > li:last-child button.revert-request');
    await page.keyboard.press('Enter');
    expect((await shownPlan(page)).status).toBe('ready');
    await page.click('#consumer-undo button.apply-plan');
    await page.waitForSelector('#consumer-undo p.applied');
    expect(await held(vm1)).toEqual({ [numa0]: { VCPU: 4 }, [cn1]: { DISK_GB: 20, MEMORY_MB: 2048 } });
    await page.close();
  }, 60_000);

  it('plans the restore of a provider to an entry of its own timeline, and applies it', async () => {
    const { cn2 } = cloud.providers;
    const traits = (body?: object) => app.request(body ? 'PUT' : 'GET', `/resource_providers/${cn2}/traits`, { version: '1.39', body });
    const before = (await traits()).body;
    const changed = await traits({ resource_provider_generation: before.resource_provider_generation, traits: [...before.traits, 'HW_CPU_X86_SSE42'] });
    expect(changed.status).toBe(200);
    const watched = await watch(context);
    const { page } = watched;
    await openConsole(watched, app.baseUrl, 'admin');
    await tabTo(page, '#provider-form input[name=provider]');
    await page.keyboard.type(cn2);
    await page.keyboard.press('Enter');
    await settled(page, 'provider-status');
    await tabTo(page, `#provider-tree section[data-uuid="${cn2}"] button.open-timeline`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('provider-status').textContent.startsWith('Timeline of'));
    const entries = await page.$$eval('#provider-timeline > li', (items) => items.map((li: any) => li.getAttribute('data-type')));
    const logged = (await app.request('GET', `/ledger/resource_providers/${cn2}/history?order=asc`)).body.events.map((e: any) => e.type);
    expect(entries).toEqual(logged);
    expect(entries.at(-1)).toBe('TraitsSet');
    await page.click(`#provider-timeline > li:nth-child(${entries.length - 1}) button.restore-here`);
    const plan = await shownPlan(page, '#provider-undo');
    expect(plan.status).toBe('ready');
    expect(plan.streams).toContain(`provider-${cn2}: + TraitsSet`);
    await page.click('#provider-undo button.apply-plan');
    await page.waitForSelector('#provider-undo p.applied');
    expect((await traits()).body.traits).toEqual(before.traits);
    expect(await page.$$eval('#provider-timeline > li', (items) => items.length)).toBe(entries.length + 1);
    await page.close();
  }, 60_000);

  it('offers nothing to undo to a caller without the admin role: the consumer itself is refused', async () => {
    const page = await openConsumer('alice:demo', cloud.consumers.vm1);
    expect(await page.textContent('#consumer-status')).toMatch(/^403 /);
    expect(await page.$$('#consumer-timeline button.restore-here')).toHaveLength(0);
    expect(await page.$('#consumer-undo section.undo-plan')).toBeNull();
    await page.close();
  }, 60_000);
});
