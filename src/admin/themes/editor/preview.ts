import { listPages } from '../../../content/index.js';
import { notFound, PlatformError } from '../../../errors.js';
import { html } from '../../../html.js';
import { renderPage } from '../../../rendering/index.js';
import { listPublicProducts } from '../../../storefront/index.js';
import { draftRenderableTheme, SETTINGS_DATA_KEY, TEMPLATE_KEYS, type TemplateKey } from '../../../themes/index.js';
import type { EditorPage } from './load.js';

/**
 * GET `…/editor/preview?template=`: the template as its draft renders (docs/admin.md, The theme
 * editor), what the editor's frame shows: the store's own theme with its drafts of that template
 * and of the theme settings laid over the live copy (`draftRenderableTheme`, as a preview session
 * shows them), rendered by the shop's renderer. The admin's session is the proof (no token in any
 * address). A product page shows an active product of the store, a collection page all
 * products, a content page a published page.
 *
 * Its headers differ from every other admin page's on purpose: it may be framed by the admin's own
 * origin only (`frame-ancestors 'self'`), and the theme's markup and scripts run sandboxed in an
 * opaque origin (`sandbox allow-scripts`, the frame's `sandbox` too), so a theme's script can
 * never read the admin or act with the merchant's cookie. Still never cached.
 */
export async function previewFrame(s: EditorPage): Promise<void> {
  const asked = s.ctx.query.template;
  const template: TemplateKey = TEMPLATE_KEYS.find((k) => k === asked) ?? 'home';
  const theme = await draftRenderableTheme(s.platform, s.store.id, s.params.themeId, [template, SETTINGS_DATA_KEY]);
  if (!theme) throw notFound('Installed theme');
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
async function sampleHandle(s: EditorPage, template: TemplateKey): Promise<string | undefined> {
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
