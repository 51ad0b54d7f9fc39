import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { buildConsoleFixture, ConsoleFixture } from '../support/console-fixture.js';
import {
  CHROMIUM, CHROMIUM_ARGS, chromiumAvailable, chromiumSkipReason, pixelVariance, pngSize, tabTo,
} from '../support/headless-chromium.js';
import { FakeKeystone } from '../support/keystone/fake-keystone.js';
import { startTestApp, TestApp } from '../support/test-app.js';

declare const document: any;

const suite = chromiumAvailable ? describe : describe.skip;
if (!chromiumAvailable) console.warn(`console e2e ${chromiumSkipReason}`);
const VIEWPORT = { width: 1100, height: 900 };
const SCREENSHOTS = join(tmpdir(), 'placement-console-screenshots');

/** What one page did on the wire and in its console, for the checks every test ends with. */
interface Watched {
  readonly page: Page;
  readonly requests: { url: string; token: string | undefined }[];
  readonly cspViolations: string[];
}

async function watch(context: BrowserContext): Promise<Watched> {
  const page = await context.newPage();
  const watched: Watched = { page, requests: [], cspViolations: [] };
  page.on('request', (request) => watched.requests.push({ url: request.url(), token: request.headers()['x-auth-token'] }));
  page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) watched.cspViolations.push(message.text()); });
  return watched;
}

/** Opens the console and enters the token by keyboard alone. */
async function openConsole(watched: Watched, baseUrl: string, token: string, path = '/ledger/console') {
  const { page } = watched;
  await page.goto(`${baseUrl}${path}`);
  await tabTo(page, '#token');
  await page.keyboard.type(token);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('auth-status').textContent.startsWith('Token set'));
}

async function selectView(page: Page, view: string) {
  await tabTo(page, `#tab-${view}`);
  await page.keyboard.press('Enter');
  expect(await page.isVisible(`#view-${view}`)).toBe(true);
  expect(await page.getAttribute(`#tab-${view}`, 'aria-selected')).toBe('true');
}

async function settled(page: Page, statusId: string): Promise<string> {
  await page.waitForFunction((id) => {
    const text = document.getElementById(id).textContent;
    return text !== '' && !text.startsWith('Loading');
  }, statusId);
  return (await page.textContent(`#${statusId}`))!;
}

/** A screenshot per view: the size the viewport gives, not blank, and the view laid out below the header. */
async function checkScreenshot(context: BrowserContext, page: Page, view: string) {
  const png = await page.screenshot({ fullPage: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(join(SCREENSHOTS, `console-${view}.png`), png);
  const size = pngSize(png);
  expect(size.width).toBe(VIEWPORT.width);
  expect(size.height).toBeGreaterThanOrEqual(VIEWPORT.height);
  expect(await pixelVariance(context, png)).toBeGreaterThan(100);
  const header = (await page.locator('header').boundingBox())!;
  const panel = (await page.locator(`#view-${view}`).boundingBox())!;
  expect(panel.y).toBeGreaterThanOrEqual(header.y + header.height);
  expect(panel.width).toBeGreaterThan(VIEWPORT.width / 2);
  expect(panel.height).toBeGreaterThan(100);
}

function expectOnlyThisService(watched: Watched, baseUrl: string, token: string) {
  expect(watched.cspViolations).toEqual([]);
  expect(watched.requests.filter((r) => !r.url.startsWith(`${baseUrl}/`))).toEqual([]);
  const calls = watched.requests.filter((r) => !/\/ledger\/(console|dashboard)(#.*)?$/.test(r.url));
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.filter((r) => r.token !== token)).toEqual([]);
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

suite(`operators' console in headless Chromium${chromiumAvailable ? '' : ` (${chromiumSkipReason})`}`, () => {
  let app: TestApp;
  let cloud: ConsoleFixture;
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    app = await startTestApp();
    cloud = await buildConsoleFixture((method, path, options) => app.request(method, path, options));
    const { chromium } = await import('playwright-core');
    profile = mkdtempSync(join(tmpdir(), 'placement-console-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: VIEWPORT });
  }, 90_000);
  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await app?.close();
  });

  it('serves a page without data or token, running only its own hashed script and style, loading nothing from elsewhere', async () => {
    const reply = await app.request('GET', '/ledger/console', { token: null });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = reply.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; connect-src 'self'/);
    const scripts = [...reply.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0][1]).toBe('');
    expect(csp).toContain(`script-src ${sha256(scripts[0][2])}`);
    const styles = [...reply.text.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(styles).toHaveLength(1);
    expect(csp).toContain(`style-src ${sha256(styles[0][1])}`);
    // No inline handlers or styles, no external URL (the only one is SVG's namespace name).
    expect(reply.text).not.toMatch(/\son[a-z]+=|\sstyle=|\bsrc=|\bhref=|<link|@import|url\(|innerHTML/);
    expect(reply.text.match(/https?:\/\/[^'"\s]*/g)).toEqual(['http://www.w3.org/2000/svg']);
    expect(reply.text).not.toContain(cloud.suffix);
    const dashboard = await app.request('GET', '/ledger/dashboard', { token: null });
    expect([dashboard.status, dashboard.text, dashboard.headers.get('content-security-policy')]).toEqual([200, reply.text, csp]);
  });

  it('finds a provider by name and draws its tree: bars, traits, aggregates, consumers', async () => {
    const watched = await watch(context);
    const { page } = watched;
    await openConsole(watched, app.baseUrl, 'admin');
    expect(await page.isVisible('#view-providers')).toBe(true);
    await tabTo(page, '#provider-form input[name=provider]');
    await page.keyboard.type(`numa1-${cloud.suffix}`);
    await page.keyboard.press('Enter');
    expect(await settled(page, 'provider-status')).toBe(`Tree of cn1-${cloud.suffix}: 3 providers.`);
    const tree = await page.$$eval('#provider-tree section.provider', (sections) => sections.map((s: any) => ({
      name: s.querySelector('h2').textContent, depth: Number(s.getAttribute('data-depth')), asked: s.classList.contains('asked'),
      bars: Object.fromEntries([...s.querySelectorAll('tr[data-resource-class]')].map((row: any) => [row.getAttribute('data-resource-class'),
        ['used', 'reserved', 'free'].map((part) => Number(row.querySelector(`rect.${part}`).getAttribute('width')))])),
      figures: [...s.querySelectorAll('td.figures')].map((cell: any) => cell.textContent),
      traits: [...s.querySelectorAll('ul.traits li')].map((li: any) => li.textContent),
      aggregates: [...s.querySelectorAll('ul.aggregates li')].map((li: any) => li.textContent),
      consumers: [...s.querySelectorAll('button.open-consumer')].map((b: any) => b.getAttribute('data-consumer')),
      indent: s.getBoundingClientRect().left,
    })));
    expect(tree.map((p) => [p.name, p.depth, p.asked])).toEqual([
      [`cn1-${cloud.suffix}`, 0, false], [`numa0-${cloud.suffix}`, 1, false], [`numa1-${cloud.suffix}`, 1, true],
    ]);
    const [cn1, numa0, numa1] = tree;
    // 240 px per bar: used, reserved and free in allocatable units (16384 in all for MEMORY_MB).
    expect(cn1.bars.MEMORY_MB).toEqual([240 * 3072 / 16384, 240 * 512 / 16384, 240 * 12800 / 16384]);
    expect(cn1.bars.DISK_GB).toEqual([24, 0, 216]);
    expect(numa0.bars.VCPU).toEqual([120, 0, 120]);
    // numa1: 8 VCPU, 2 reserved, ratio 2: 12 allocatable, 1 used, 4 reserved units.
    expect(numa1.bars.VCPU).toEqual([15, 60, 165]);
    expect(numa1.figures).toEqual(['1 used of 12 (total 8, reserved 2, ratio 2, free 11)']);
    expect(cn1.traits).toEqual(['HW_CPU_X86_AVX2', cloud.trait].sort());
    expect(cn1.aggregates).toEqual([cloud.aggregates.a]);
    expect(numa0.aggregates).toEqual([]);
    expect(cn1.consumers).toEqual([cloud.consumers.vm1, cloud.consumers.vm3].sort());
    expect(numa1.consumers).toEqual([cloud.consumers.vm3]);
    expect(numa1.indent).toBeGreaterThan(cn1.indent);
    await checkScreenshot(context, page, 'providers');

    // By uuid, and a name nobody has.
    await tabTo(page, '#provider-form input[name=provider]', 'Shift+Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(cloud.providers.cn2);
    await page.keyboard.press('Enter');
    expect(await settled(page, 'provider-status')).toBe(`Tree of cn2-${cloud.suffix}: 1 provider.`);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('nobody-has-this-name');
    await page.keyboard.press('Enter');
    expect(await settled(page, 'provider-status')).toBe('No provider named nobody-has-this-name.');
    expect(await page.$$('#provider-tree section')).toHaveLength(0);
    expectOnlyThisService(watched, app.baseUrl, 'admin');
    await page.close();
  }, 60_000);
});
