import { createHash } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { buildConsoleFixture, ConsoleFixture } from '../support/console-fixture.js';
import {
  checkScreenshot, expectOnlyThisService, openConsole, selectView, settled, VIEWPORT, watch,
} from '../support/console-page.js';
import { chromiumAvailable, chromiumSkipReason, launchChromium, tabTo } from '../support/headless-chromium.js';
import { startTestApp, TestApp } from '../support/test-app.js';

// The page functions below run in the browser; the tests compile without the DOM lib.
declare const document: any;
declare const location: any;

const suite = chromiumAvailable ? describe : describe.skip;
if (!chromiumAvailable) console.warn(`console e2e ${chromiumSkipReason}`);

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

suite(`operators' console in headless Chromium${chromiumAvailable ? '' : ` (${chromiumSkipReason})`}`, () => {
  let app: TestApp;
  let cloud: ConsoleFixture;
  let context: BrowserContext;
  let closeBrowser: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    app = await startTestApp();
    cloud = await buildConsoleFixture((method, path, options) => app.request(method, path, options));
    ({ context, close: closeBrowser } = await launchChromium('placement-console-', VIEWPORT));
  }, 90_000);
  afterAll(async () => {
    await closeBrowser?.();
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

  const readAllocations = (page: Page, block: string) => page.$$eval(`${block} tr[data-provider]`, (rows) =>
    Object.fromEntries(rows.map((row: any) => [row.getAttribute('data-provider'), row.querySelector('.resources').textContent])));

  it('opens a consumer from the tree: its allocations, its timeline, and its allocations as of a past time', async () => {
    const watched = await watch(context);
    const { page } = watched;
    const { vm1 } = cloud.consumers;
    const { cn1, numa0 } = cloud.providers;
    await openConsole(watched, app.baseUrl, 'admin');
    await tabTo(page, '#provider-form input[name=provider]');
    await page.keyboard.type(`cn1-${cloud.suffix}`);
    await page.keyboard.press('Enter');
    await settled(page, 'provider-status');
    await tabTo(page, `#provider-tree section[data-uuid="${numa0}"] button.open-consumer[data-consumer="${vm1}"]`);
    await page.keyboard.press('Enter');
    expect(await settled(page, 'consumer-status')).toBe(`Consumer ${vm1}: 3 events.`);
    expect(await page.getAttribute('#tab-consumer', 'aria-selected')).toBe('true');
    expect(await readAllocations(page, '#consumer-now')).toEqual({ [numa0]: 'VCPU 4', [cn1]: 'DISK_GB 20, MEMORY_MB 2048' });
    expect(await page.textContent('#consumer-now .meta')).toBe(`project ${cloud.projects.a} · user alice · type INSTANCE · generation 3`);

    const history = (await app.request('GET', `/ledger/consumers/${vm1}/history`)).body.events;
    const timeline = await page.$$eval('#consumer-timeline > li', (items) => items.map((li: any) => ({
      type: li.getAttribute('data-type'), generation: Number(li.getAttribute('data-generation')), position: li.getAttribute('data-position'),
      who: li.querySelector('.who').textContent, changes: [...li.querySelectorAll('.changes li')].map((c: any) => c.textContent),
    })));
    expect(timeline.map((e) => [e.type, e.generation])).toEqual([['ConsumerAllocationsReplaced', 1], ['ConsumerAllocationsReplaced', 2], ['ConsumerAllocationsReplaced', 3]]);
    expect(timeline.map((e) => e.changes)).toEqual([
      [`+MEMORY_MB 2048 on ${cn1}`, `+VCPU 2 on ${numa0}`].sort((a, b) => (a.split(' on ')[1] + a).localeCompare(b.split(' on ')[1] + b)),
      [`VCPU 2 → 4 on ${numa0}`],
      [`+DISK_GB 20 on ${cn1}`],
    ]);
    timeline.forEach((entry, i) => {
      expect(entry.position).toBe(history[i].position);
      expect(entry.who).toBe(`by user ${history[i].user_id}, project ${history[i].project_id} · request ${history[i].request_id} · generation ${i + 1}`);
      expect(entry.who).toMatch(/ · request req-[0-9a-f-]{36} · /);
    });
    await checkScreenshot(context, page, 'consumer');

    // As of a time between the resize and the disk: typed into the form.
    await tabTo(page, '#consumer-form input[name=as_of]', 'Shift+Tab');
    await page.keyboard.type(cloud.afterResize);
    await page.keyboard.press('Enter');
    await settled(page, 'consumer-status');
    await page.waitForSelector('#consumer-as-of section.as-of');
    expect(await page.textContent('#consumer-as-of h3')).toBe(`Allocations as of ${cloud.afterResize}`);
    expect(await readAllocations(page, '#consumer-as-of')).toEqual({ [numa0]: 'VCPU 4', [cn1]: 'MEMORY_MB 2048' });
    // As of the first event's own position: from its button in the timeline.
    await tabTo(page, '#consumer-timeline > li:first-child button.as-of-here');
    await page.keyboard.press('Enter');
    await page.waitForFunction((position) => document.querySelector('#consumer-as-of h3')?.textContent === `Allocations as of ${position}`, history[0].position);
    expect(await readAllocations(page, '#consumer-as-of')).toEqual({ [numa0]: 'VCPU 2', [cn1]: 'MEMORY_MB 2048' });
    expect(await page.inputValue('#consumer-form input[name=as_of]')).toBe(history[0].position);
    // Back to a provider holding it, from its allocations.
    await tabTo(page, `#consumer-now button.open-provider[data-provider="${numa0}"]`, 'Shift+Tab');
    await page.keyboard.press('Enter');
    expect(await settled(page, 'provider-status')).toBe(`Tree of cn1-${cloud.suffix}: 3 providers.`);
    expect(await page.getAttribute('section.provider.asked', 'data-uuid')).toBe(numa0);
    expect(await page.evaluate(() => document.activeElement.textContent)).toBe(`numa0-${cloud.suffix}`);
    expectOnlyThisService(watched, app.baseUrl, 'admin');
    await page.close();
  }, 60_000);

  it('explains "why no host?" from a flavor-like form, with the funnel per group and why a provider was left out', async () => {
    const watched = await watch(context);
    const { page } = watched;
    await openConsole(watched, app.baseUrl, 'admin');
    await selectView(page, 'explain');
    for (const [name, value] of [['vcpus', '2'], ['memory_mb', '1024'], ['required', 'HW_CPU_X86_AVX2']]) {
      await tabTo(page, `#explain-form input[name=${name}]`);
      await page.keyboard.type(value);
    }
    await tabTo(page, '#explain-build');
    await page.keyboard.press('Enter');
    const query = 'resources=VCPU:2,MEMORY_MB:1024&required=HW_CPU_X86_AVX2';
    expect(await page.inputValue('#explain-form textarea[name=query]')).toBe(query);
    await tabTo(page, '#explain-form input[name=provider]');
    await page.keyboard.type(`cn2-${cloud.suffix}`);
    await page.keyboard.press('Enter');
    expect(await settled(page, 'explain-status')).toBe('Explained.');

    const api = (await app.request('GET', `/ledger/explain/allocation_candidates?${query}&provider=${cloud.providers.cn2}`, { version: 'latest' })).body;
    expect(api.candidates).toBeGreaterThan(0);
    expect(Number(await page.getAttribute('p.candidates', 'data-candidates'))).toBe(api.candidates);
    const funnel = await page.$$eval('#explain-result section.group', (groups) => groups.map((g: any) => ({
      suffix: g.getAttribute('data-suffix'),
      steps: [...g.querySelectorAll('li.step')].map((li: any) => [li.getAttribute('data-step'), Number(li.getAttribute('data-remaining')),
        Number(li.querySelector('rect').getAttribute('width'))]),
    })));
    expect(funnel.map((g) => g.suffix)).toEqual(api.groups.map((g: any) => g.suffix));
    const first = api.groups[0].steps[0].remaining;
    expect(funnel[0].steps).toEqual(api.groups[0].steps.map((s: any) => [s.step, s.remaining, Math.round((s.remaining / first) * 240 * 1000) / 1000]));
    const search = await page.$$eval('#explain-result table.search tr', (rows) => rows.map((r: any) => Number(r.children[2].textContent)));
    expect(search).toEqual(api.search.map((s: any) => s.count));
    // cn2 lacks the trait: the page says which step left it out, and why.
    const verdict = api.provider.groups[0];
    expect(verdict.excluded_by.step).toBe('traits');
    expect(await page.getAttribute('li.verdict', 'data-excluded-by')).toBe('traits');
    expect(await page.getAttribute('li.verdict', 'class')).toBe('verdict out');
    expect(await page.textContent('li.verdict')).toBe(`Left out of the unsuffixed group by traits: ${verdict.excluded_by.reason}`);
    expect(verdict.excluded_by.reason).toContain('HW_CPU_X86_AVX2');
    await checkScreenshot(context, page, 'explain');

    // A malformed query is the API's 400, shown as such.
    await tabTo(page, '#explain-form textarea[name=query]', 'Shift+Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('resources=VCPU:x');
    await tabTo(page, '#explain-form button[type=submit]');
    await page.keyboard.press('Enter');
    expect(await settled(page, 'explain-status')).toMatch(/^400 /);
    expect(await page.$$('#explain-result section')).toHaveLength(0);
    expectOnlyThisService(watched, app.baseUrl, 'admin');
    await page.close();
  }, 60_000);

  it('shows capacity per class and per aggregate with the top projects, and a top project\'s usage over time', async () => {
    const watched = await watch(context);
    const { page } = watched;
    await openConsole(watched, app.baseUrl, 'admin');
    await selectView(page, 'capacity');
    await tabTo(page, '#capacity-form button[type=submit]');
    await page.keyboard.press('Enter');
    await settled(page, 'capacity-status');
    const rows = await page.$$eval('table.capacity-classes tr[data-resource-class]', (trs) => trs.map((tr: any) => ({
      rc: tr.getAttribute('data-resource-class'),
      figures: ['total', 'reserved', 'capacity', 'used', 'free'].map((k) => Number(tr.querySelector(`td.${k}`).textContent)),
      bar: ['used', 'reserved', 'free'].map((part) => Number(tr.querySelector(`rect.${part}`).getAttribute('width'))),
      top: [...tr.querySelectorAll('button.open-usage')].map((b: any) => b.textContent),
    })));
    expect(rows.map((r) => [r.rc, r.figures, r.top])).toEqual([
      ['DISK_GB', [300, 0, 300, 20, 280], [`${cloud.projects.a} (20)`]],
      ['MEMORY_MB', [24576, 512, 24064, 7168, 16896], [`${cloud.projects.a} (6144)`, `${cloud.projects.b} (1024)`]],
      ['VCPU', [32, 2, 36, 9, 27], [`${cloud.projects.a} (8)`, `${cloud.projects.b} (1)`]],
    ]);
    // VCPU: 36 allocatable of 30 unreserved, so 2 reserved are 2.4 units; 38.4 units over 200 px.
    expect(rows[2].bar).toEqual([200 * 9 / 38.4, 12.5, 200 * 27 / 38.4].map((w) => Math.round(w * 1000) / 1000));
    const aggregates = await page.$$eval('section.aggregate', (sections) => sections.map((s: any) => [s.getAttribute('data-aggregate'),
      [...s.querySelectorAll('tr[data-resource-class]')].map((tr: any) => `${tr.getAttribute('data-resource-class')}:${tr.getAttribute('data-used')}/${tr.getAttribute('data-free')}`
        + [...tr.querySelectorAll('button.open-usage')].map((b: any) => ` ${b.textContent}`).join(''))]));
    const { a, b } = cloud.projects;
    expect(aggregates).toEqual([
      [cloud.aggregates.a, [`DISK_GB:20/280 ${a} (20)`, `MEMORY_MB:7168/16896 ${a} (6144) ${b} (1024)`, `VCPU:4/12 ${a} (4)`]],
      [cloud.aggregates.b, ['DISK_GB:0/100', `MEMORY_MB:4096/4096 ${a} (4096)`, `VCPU:4/12 ${a} (4)`]],
      ['', [`VCPU:5/15 ${a} (4) ${b} (1)`]],
    ].sort((x, y) => (x[0] === '' ? 1 : y[0] === '' ? -1 : String(x[0]).localeCompare(String(y[0])))));
    await checkScreenshot(context, page, 'capacity');

    await tabTo(page, `button.open-usage[data-project="${cloud.projects.a}"]`);
    await page.keyboard.press('Enter');
    expect(await settled(page, 'status')).toMatch(new RegExp(`^Project ${cloud.projects.a}, .* \\(daily, read at `));
    expect(await page.getAttribute('#tab-usage', 'aria-selected')).toBe('true');
    const charts = await page.$$eval('section.chart', (sections) => sections.map((s: any) => [s.getAttribute('data-resource-class'), Number(s.getAttribute('data-peak'))]));
    expect(charts).toEqual([['DISK_GB', 20], ['MEMORY_MB', 6144], ['VCPU', 8]]);
    await checkScreenshot(context, page, 'usage');
    expectOnlyThisService(watched, app.baseUrl, 'admin');
    await page.close();
  }, 60_000);

  it('asks the service nothing before a token is given, on any view, and says so', async () => {
    for (const view of ['providers', 'consumer', 'capacity', 'usage', 'explain']) {
      const watched = await watch(context);
      const { page } = watched;
      await page.goto(`${app.baseUrl}/ledger/console#${view}`);
      await page.evaluate(() => document.querySelector(`#view-${location.hash.slice(1)} form button, #view-${location.hash.slice(1)} form [type=submit]`)?.click());
      await page.waitForTimeout(300);
      expect([view, watched.requests.filter((r) => !/\/ledger\/console(#.*)?$/.test(r.url)).map((r) => r.url)]).toEqual([view, []]);
      await page.close();
    }
    const watched = await watch(context);
    await watched.page.goto(`${app.baseUrl}/ledger/console#providers`);
    await tabTo(watched.page, '#provider-form input[name=provider]');
    await watched.page.keyboard.type(cloud.providers.cn1);
    await watched.page.keyboard.press('Enter');
    expect(await settled(watched.page, 'provider-status')).toBe('Enter a token first: nothing is asked of the service without one.');
    expect(watched.requests.filter((r) => !/\/ledger\/console(#.*)?$/.test(r.url))).toEqual([]);
    await watched.page.close();
  }, 60_000);

  it('shows the API\'s refusal when the token may not read, says what is missing, and keeps nothing on the page', async () => {
    const watched = await watch(context);
    const { page } = watched;
    await openConsole(watched, app.baseUrl, 'nobody');
    await tabTo(page, '#provider-form input[name=provider]');
    await page.keyboard.type(cloud.providers.cn1);
    await page.keyboard.press('Enter');
    expect(await settled(page, 'provider-status')).toMatch(/^403 [^]*Policy does not allow placement:ledger:resource_providers:tree to be performed\. This token's roles do not allow this view/);
    expect(await page.$$('#provider-tree section')).toHaveLength(0);
    expectOnlyThisService(watched, app.baseUrl, 'nobody');
    await page.close();
  }, 60_000);
});
