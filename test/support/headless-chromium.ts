import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

// Globals of the page functions below, which run in the browser; the tests compile without the DOM lib.
declare const document: any;
declare const Image: any;

/** Debian's chromium package; CI installs it (.ci/run). Without it the browser tests are skipped, saying why. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
export const chromiumAvailable = existsSync(CHROMIUM);
export const chromiumSkipReason = `skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`;

/** Debian's Chromium with a throwaway profile; close() removes it. */
export async function launchChromium(prefix: string, viewport: { width: number; height: number }) {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), prefix));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The screenshot's grey-level variance, measured by the browser itself on a blank page: near 0 when blank. */
export async function pixelVariance(context: BrowserContext, png: Buffer): Promise<number> {
  const probe = await context.newPage();
  try {
    return await probe.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context2d = canvas.getContext('2d')!;
      context2d.drawImage(image, 0, 0);
      const pixels = context2d.getImageData(0, 0, image.width, image.height).data;
      let sum = 0, squares = 0;
      const n = pixels.length / 4;
      for (let i = 0; i < pixels.length; i += 4) {
        const grey = (pixels[i] + pixels[i + 1] + pixels[i + 2]) / 3;
        sum += grey;
        squares += grey * grey;
      }
      return squares / n - (sum / n) ** 2;
    }, png.toString('base64'));
  } finally {
    await probe.close();
  }
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches `selector`: proof that the
 * keyboard reaches it. Fails after `max` presses.
 */
export async function tabTo(page: Page, selector: string, key: 'Tab' | 'Shift+Tab' = 'Tab', max = 120): Promise<number> {
  for (let presses = 0; presses <= max; presses++) {
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return presses;
    await page.keyboard.press(key);
  }
  throw new Error(`the keyboard did not reach ${selector} in ${max} presses of ${key}`);
}
