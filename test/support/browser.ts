import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

/**
 * Headless Chromium for the page tests: Debian's `chromium` package (`.ci/run` installs it),
 * never a browser playwright downloads. LINESMITH_CHROMIUM names another binary.
 */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The browser binary to use, or null when none is installed. */
export function chromiumPath(): string | null {
  const own = process.env['LINESMITH_CHROMIUM'];
  if (own) return existsSync(own) ? own : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  // --no-sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** Every console error and uncaught page error, as text, from the moment the page is made. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  return errors;
}

/** Per canvas on the page: its size and how many of its pixels are not fully transparent. */
export async function canvasInk(
  page: Page,
): Promise<{ readonly width: number; readonly height: number; readonly inked: number }[]> {
  // A string, run in the page: the test's own tsconfig has no DOM types.
  return page.evaluate(`[...document.querySelectorAll('canvas')].map((c) => {
    const ctx = c.getContext('2d');
    if (!ctx || c.width === 0 || c.height === 0) return { width: c.width, height: c.height, inked: 0 };
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    let inked = 0;
    for (let i = 3; i < px.length; i += 4) if (px[i] > 0) inked++;
    return { width: c.width, height: c.height, inked };
  })`);
}
