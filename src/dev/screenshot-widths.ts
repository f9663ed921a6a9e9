import type { Browser, Page } from 'playwright-core';

/** The widths the platform's own pages are shot at (docs/console.md, Screenshots): a laptop's, and a phone's (390 px). */
export const SCREENSHOT_WIDTHS = [1280, 390] as const;

/**
 * The page as it is now, full length, at each width: `<path>.png` at 1280 px and `<path>-390.png`
 * at 390. A page that scrolls sideways at a width is reported (nothing of the platform's pages may
 * be wider than a phone: a table scrolls within its own box), so a refresh shows it at once.
 */
export async function shootAtWidths(page: Page, path: string): Promise<void> {
  const height = page.viewportSize()?.height ?? 900;
  for (const width of SCREENSHOT_WIDTHS) {
    await page.setViewportSize({ width, height });
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    if (overflow > 0) console.warn(`${page.url()} scrolls sideways by ${overflow} px at ${width} px`);
    // A frame of another origin (the theme editor's sandboxed preview) is not painted while out of view, even in a full-page
    // shot: each is brought into view once it has loaded, then the page goes back to its top, where the sticky navigation belongs.
    const frames = await page.locator('iframe').all();
    for (const frame of frames) {
      await frame.scrollIntoViewIfNeeded();
      await (await (await frame.elementHandle()).contentFrame())?.waitForLoadState('load');
    }
    if (frames.length > 0) {
      await page.waitForTimeout(300);
      await page.evaluate('window.scrollTo(0, 0)');
    }
    const file = width === SCREENSHOT_WIDTHS[0] ? `${path}.png` : `${path}-${width}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(`saved ${file.slice(file.indexOf('docs/'))}`);
  }
  await page.setViewportSize({ width: SCREENSHOT_WIDTHS[0], height });
}

/**
 * A page of the admin signed in as the merchant of `token` (its `emporium_session` cookie), and
 * `shot(name, path)`: the page at `path` (a 200, or it throws) shot at each width as `<out>admin-<name>`.
 */
export async function adminShooter(browser: Browser, base: string, token: string, out: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  await context.addCookies([{ name: 'emporium_session', value: token, url: base, httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  const shot = async (name: string, path: string) => {
    const res = await page.goto(base + path);
    if (!res || res.status() !== 200) throw new Error(`${path}: ${res?.status()}`);
    await shootAtWidths(page, `${out}admin-${name}`);
  };
  return { page, shot };
}
