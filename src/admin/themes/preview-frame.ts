import { listPages } from '../../content/index.js';
import { PlatformError } from '../../errors.js';
import { html } from '../../html.js';
import { renderPage } from '../../rendering/index.js';
import { listPublicProducts } from '../../storefront/index.js';
import { TEMPLATE_KEYS, type RenderableTheme, type TemplateKey } from '../../themes/index.js';
import type { StorePage } from '../request.js';

/** The template a preview's `?template=` names, home when it names none or one that is not a template. */
export const askedTemplate = (s: StorePage): TemplateKey => TEMPLATE_KEYS.find((k) => k === s.ctx.query.template) ?? 'home';

/**
 * Answer with a theme's template rendered with the store's own data by the shop's renderer: what
 * the admin's preview frames show (the editor's draft, a theme store theme before it is installed).
 * A product page shows an active product of the store, a collection page all products, a content
 * page a published page.
 *
 * Its headers differ from every other admin page's on purpose: it may be framed by the admin's own
 * origin only (`frame-ancestors 'self'`), and the theme's markup and scripts run sandboxed in an
 * opaque origin (`sandbox allow-scripts`, the frame's `sandbox` too), so a theme's script can
 * never read the admin or act with the merchant's cookie. Still never cached.
 */
export async function sendPreviewFrame(s: StorePage, theme: RenderableTheme, template: TemplateKey): Promise<void> {
  let status: number;
  let body: string;
  try {
    const rendered = await renderPage(s.platform, s.store, theme, { template, handle: await sampleHandle(s, template) });
    status = rendered.status;
    body = rendered.html;
  } catch (err) {
    if (!(err instanceof PlatformError && err.kind === 'not_found')) throw err;
    // Nothing of the store to show this template with (no product, no published page): say so inside the frame.
    status = 200;
    body = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Preview</title></head><body style="font:15px system-ui;padding:24px">
      <p>${nothingToShow(template)}</p></body></html>`.html;
  }
  s.ctx.status = status;
  s.ctx.type = 'text/html; charset=utf-8';
  s.ctx.set('Content-Security-Policy', "sandbox allow-scripts; frame-ancestors 'self'");
  s.ctx.set('X-Frame-Options', 'SAMEORIGIN');
  s.ctx.body = body;
}

/** A page of the store to preview a template with. */
async function sampleHandle(s: StorePage, template: TemplateKey): Promise<string | undefined> {
  if (template === 'collection') return 'all';
  if (template === 'product') return (await listPublicProducts(s.platform, s.store, { sort: 'created_at', limit: 1 })).items[0]?.handle;
  if (template === 'page') return (await listPages(s.platform, s.store.id, { limit: 1, published: 'true' })).items[0]?.handle;
  return undefined;
}

const nothingToShow = (template: TemplateKey) =>
  template === 'product'
    ? 'Add an active product to the store to preview the product template.'
    : template === 'page'
      ? 'Publish a page (Content) to preview the page template.'
      : 'There is nothing of the store to show this template with yet.';
