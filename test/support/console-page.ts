import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { pixelVariance, pngSize, tabTo } from './headless-chromium.js';

// The page functions below run in the browser; the tests compile without the DOM lib.
declare const document: any;

/** What the console's browser tests share: watching a page, driving it by keyboard, checking its screenshots. */
export const VIEWPORT = { width: 1100, height: 900 };
/** Not in the repository: a failed run leaves them here to look at. */
export const SCREENSHOTS = join(tmpdir(), 'placement-console-screenshots');

/** What one page did on the wire and in its console, for the checks every test ends with. */
export interface Watched {
  readonly page: Page;
  readonly requests: { url: string; token: string | undefined }[];
  readonly cspViolations: string[];
}

export async function watch(context: BrowserContext): Promise<Watched> {
  const page = await context.newPage();
  const watched: Watched = { page, requests: [], cspViolations: [] };
  page.on('request', (request) => watched.requests.push({ url: request.url(), token: request.headers()['x-auth-token'] }));
  page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) watched.cspViolations.push(message.text()); });
  return watched;
}

/** Opens the console and enters the token by keyboard alone. */
export async function openConsole(watched: Watched, baseUrl: string, token: string, path = '/ledger/console') {
  const { page } = watched;
  await page.goto(`${baseUrl}${path}`);
  await tabTo(page, '#token');
  await page.keyboard.type(token);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('auth-status').textContent.startsWith('Token set'));
}

export async function selectView(page: Page, view: string) {
  await tabTo(page, `#tab-${view}`);
  await page.keyboard.press('Enter');
  expect(await page.isVisible(`#view-${view}`)).toBe(true);
  expect(await page.getAttribute(`#tab-${view}`, 'aria-selected')).toBe('true');
}

export async function settled(page: Page, statusId: string): Promise<string> {
  await page.waitForFunction((id) => {
    const text = document.getElementById(id).textContent;
    return text !== '' && !text.startsWith('Loading');
  }, statusId);
  return (await page.textContent(`#${statusId}`))!;
}

/** A screenshot per view: the size the viewport gives, not blank, and the view laid out below the header. */
export async function checkScreenshot(context: BrowserContext, page: Page, view: string) {
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

export function expectOnlyThisService(watched: Watched, baseUrl: string, token: string) {
  expect(watched.cspViolations).toEqual([]);
  expect(watched.requests.filter((r) => !r.url.startsWith(`${baseUrl}/`))).toEqual([]);
  const calls = watched.requests.filter((r) => !/\/ledger\/(console|dashboard)(#.*)?$/.test(r.url));
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.filter((r) => r.token !== token)).toEqual([]);
}
