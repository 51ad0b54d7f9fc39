import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable as available, chromiumSkipReason as skipReason, launchChromium, pixelVariance } from '../support/headless-chromium.js';
import { startTestApp, TestApp } from '../support/test-app.js';
import { appendPastClaims } from '../support/usage-history.js';

// Globals of the page functions below, which run in the browser; the tests compile without the DOM lib.
declare const document: any;

/** The console's usage view at the dashboard's old address. Without Debian's chromium the browser tests are skipped, saying why. */
const HOUR = 3_600_000;
const suite = available ? describe : describe.skip;
if (!available) console.warn(`usage dashboard e2e ${skipReason}`);

interface Chart {
  resourceClass: string;
  peak: number;
  integral: number;
  summary: string;
  bars: { start: string; peak: number; integral: number; height: number }[];
  peakLine: boolean;
}

const readCharts = (page: Page): Promise<Chart[]> => page.$$eval('section.chart', (sections) => sections.map((s) => ({
  resourceClass: s.getAttribute('data-resource-class')!,
  peak: Number(s.getAttribute('data-peak')),
  integral: Number(s.getAttribute('data-integral')),
  summary: s.querySelector('.summary')!.textContent!,
  bars: [...s.querySelectorAll('rect.bucket')].map((bar) => ({
    start: bar.getAttribute('data-start')!, peak: Number(bar.getAttribute('data-peak')),
    integral: Number(bar.getAttribute('data-integral')), height: Number(bar.getAttribute('height')),
  })),
  peakLine: s.querySelector('path.peak') !== null,
})));

suite(`usage dashboard in headless Chromium${available ? '' : ` (${skipReason})`}`, () => {
  let app: TestApp;
  let context: BrowserContext;
  let closeBrowser: (() => Promise<void>) | undefined;
  const project = `dash-${randomUUID()}`;

  beforeAll(async () => {
    app = await startTestApp();
    ({ context, close: closeBrowser } = await launchChromium('usage-dashboard-', { width: 900, height: 1000 }));
  }, 60_000);
  afterAll(async () => {
    await closeBrowser?.();
    await app?.close();
  });

  async function show(page: Page, fields: Record<string, string>) {
    await page.goto(`${app.baseUrl}/ledger/dashboard`);
    // The old address is the console opened on its usage view.
    expect(await page.getAttribute('#tab-usage', 'aria-selected')).toBe('true');
    for (const [name, value] of Object.entries(fields)) {
      if (name === 'bucket') await page.selectOption('select[name=bucket]', value);
      else await page.fill(`input[name=${name}]`, value);
    }
    await page.click('#show');
    await page.waitForFunction(() => !document.getElementById('status')!.textContent!.startsWith('Loading'));
  }

  it('charts every class of a project claimed through the API, with the values of /ledger/usage', async () => {
    const began = Date.now();
    const rp = randomUUID();
    expect((await app.request('POST', '/resource_providers', { version: '1.20', body: { name: `rp-${rp}`, uuid: rp } })).status).toBe(200);
    expect((await app.request('PUT', `/resource_providers/${rp}/inventories`, {
      version: '1.20', body: { resource_provider_generation: 0, inventories: { VCPU: { total: 16 }, MEMORY_MB: { total: 16384 }, DISK_GB: { total: 200 } } },
    })).status).toBe(200);
    const claim = (consumer: string, resources: object) => app.request('PUT', `/allocations/${consumer}`, {
      version: '1.38', body: { allocations: { [rp]: { resources } }, project_id: project, user_id: 'alice', consumer_generation: null, consumer_type: 'INSTANCE' },
    });
    const [vm1, vm2] = [randomUUID(), randomUUID()];
    expect((await claim(vm1, { VCPU: 2, MEMORY_MB: 2048, DISK_GB: 20 })).status).toBe(204);
    expect((await claim(vm2, { VCPU: 4, MEMORY_MB: 4096 })).status).toBe(204);
    expect((await app.request('DELETE', `/allocations/${vm2}`)).status).toBe(204);

    const start = new Date(Math.floor(began / HOUR) * HOUR - HOUR).toISOString();
    const page = await context.newPage();
    await show(page, { token: 'admin', project_id: project, start });
    const charts = await readCharts(page);
    expect(charts.map((c) => c.resourceClass)).toEqual(['DISK_GB', 'MEMORY_MB', 'VCPU']);
    expect(charts.map((c) => c.peak)).toEqual([20, 6144, 6]);
    const api = (await app.request('GET', `/ledger/usage?project_id=${project}&start=${start}`)).body.resource_classes;
    for (const chart of charts) {
      const series = api[chart.resourceClass];
      expect(chart.bars.map((b) => [b.start, b.peak])).toEqual(series.buckets.map((b: any) => [b.start, b.peak]));
      // Read a moment apart, so the open hour's integral has grown a little in between.
      expect(chart.integral).toBeGreaterThan(0);
      expect(chart.integral).toBeLessThanOrEqual(series.integral);
      expect(chart.summary).toContain(`peak ${chart.peak} · `);
      expect(chart.peakLine).toBe(true);
    }
    await page.close();
  }, 60_000);

  it('draws a past day exactly, and the screenshot is not blank', async () => {
    const past = `past-${randomUUID()}`;
    const day = Date.UTC(2026, 2, 1);
    const [a, b] = [randomUUID(), randomUUID()];
    await appendPastClaims(app.running.database.pool, [
      { consumer: a, at: new Date(day + 2 * HOUR), resources: { VCPU: 4, MEMORY_MB: 8192 }, projectId: past },
      { consumer: b, at: new Date(day + 6.5 * HOUR), resources: { VCPU: 8 }, projectId: past },
      { consumer: b, at: new Date(day + 12 * HOUR), resources: null, projectId: past },
      { consumer: a, at: new Date(day + 20 * HOUR), resources: { VCPU: 2, MEMORY_MB: 4096 }, projectId: past },
    ]);
    const page = await context.newPage();
    await show(page, { token: 'admin', project_id: past, start: '2026-03-01T00:00:00Z', end: '2026-03-02T00:00:00Z' });
    const [memory, vcpu] = await readCharts(page);
    expect([memory.resourceClass, vcpu.resourceClass]).toEqual(['MEMORY_MB', 'VCPU']);
    expect(vcpu.bars).toHaveLength(24);
    expect(vcpu.peak).toBe(12);
    expect(vcpu.integral).toBe(4 * 18 + 8 * 5.5 + 2 * 4);
    expect(vcpu.bars.slice(5, 8).map((bar) => [bar.peak, bar.integral])).toEqual([[4, 4], [12, 4 + 8 * 0.5], [12, 12]]);
    // Bars are average units: a full hour at 12 units is as tall as the peak line's top.
    expect(vcpu.bars[7].height).toBeCloseTo(vcpu.bars[8].height);
    expect(vcpu.bars[0].height).toBe(0);
    expect(vcpu.bars[7].height).toBeGreaterThan(3 * vcpu.bars[3].height - 1);
    expect(memory.summary).toBe(`peak 8192 · ${8192 * 18 + 4096 * 4} MEMORY_MB-hours`);

    const png = await page.screenshot({ fullPage: true });
    writeFileSync(join(tmpdir(), 'usage-dashboard.png'), png);
    expect(await pixelVariance(context, png)).toBeGreaterThan(100);
    await page.close();
  }, 60_000);

  it('shows the API\'s refusal when the token may not read usage', async () => {
    const page = await context.newPage();
    await show(page, { token: 'nobody', project_id: project, start: '2026-03-01T00:00:00Z' });
    expect(await page.textContent('#status')).toContain('403');
    expect(await page.$$('section.chart')).toHaveLength(0);
    await page.close();
  }, 60_000);
});
