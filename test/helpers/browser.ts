import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../src/dev/chromium.js';

/**
 * Real-browser tests: one headless Chromium per test file (Debian's `chromium`, installed by
 * src/dev/chromium.ts with apt-get the first time on a fresh Debian machine, as SeaweedFS is
 * with pip; driven by playwright-core), isolated contexts (each its own cookies, like a separate
 * shopper), and an accessibility pass with axe-core.
 */

export type UsedBrowser = {
  browser: Browser;
  /** A new isolated context (its own cookies and storage): `javaScript: false` is a browser with JavaScript off. */
  context(options?: { javaScript?: boolean }): Promise<BrowserContext>;
  /** A page in a new context. */
  page(options?: { javaScript?: boolean }): Promise<Page>;
};

/**
 * The describe block's browser: launched by a `before` hook (the binary installed first when it
 * must be), every context it made closed and the browser with them by an `after` hook.
 */
export function useBrowser(): UsedBrowser {
  const contexts: BrowserContext[] = [];
  const used = {
    browser: undefined as unknown as Browser,
    async context(options: { javaScript?: boolean } = {}) {
      const context = await used.browser.newContext({ javaScriptEnabled: options.javaScript ?? true, viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      return context;
    },
    async page(options: { javaScript?: boolean } = {}) {
      return (await used.context(options)).newPage();
    },
  };
  before(async function () {
    this.timeout(20 * 60_000); // a first run on a fresh machine installs Chromium
    used.browser = await launchChromium();
  });
  after(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
    await (used.browser as Browser | undefined)?.close();
  });
  return used;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[]; summary: string }[] };

/**
 * axe-core's violations on the page as it is now (every rule axe runs by default: WCAG 2.0, 2.1
 * and 2.2 A and AA, and its best practices). The page's context must have JavaScript enabled: axe
 * runs in the page. It is evaluated through the DevTools protocol, so a page's
 * Content-Security-Policy does not keep it out.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.map(String), summary: (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 300) })),
  })))`)) as AxeViolation[];
  return result;
}

/** What the pass refuses: any violation of impact serious or critical, and any `color-contrast` one. */
export function blockingViolations(violations: AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'color-contrast');
}

/** One line a violation: rule, impact, what it asks, where (the first few elements). */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}; ${v.nodes.length} element(s): ${v.nodes
          .slice(0, 4)
          .map((n) => `${n.target.join(' ')}${n.summary ? ` [${n.summary}]` : ''}`)
          .join('; ')}`,
    )
    .join('\n');
}
