import { html, raw, type Markup } from '../../html.js';
import { withQuery } from '../../http/ui/pager.js';
import { catalogRenderableTheme, TEMPLATE_KEYS } from '../../themes/index.js';
import { templateName } from './editor/page.js';
import { catalogPath, type CatalogPage } from './paths.js';
import { askedTemplate, sendPreviewFrame } from './preview-frame.js';

/**
 * The preview of a theme store theme before it is installed (docs/admin.md, Themes; Shopify's "Try
 * theme"): `…/themes/store/<slug>/preview?template=` renders the theme's published version, with
 * its own templates and default settings, and the store's products, collections and pages, by the
 * shop's renderer (`catalogRenderableTheme`). Nothing is installed or drafted; a paid theme not
 * bought may be previewed, a private theme only by its author. Its assets come from the storefront
 * asset route, which serves a version the theme store publishes (docs/themes.md, Theme assets).
 */
export async function catalogPreviewFrame(s: CatalogPage): Promise<void> {
  const theme = await catalogRenderableTheme(s.platform, s.params.slug, s.viewer.merchant);
  await sendPreviewFrame(s, theme, askedTemplate(s));
}

/** The frame's width is the column's (a phone's too); its height is fixed: a document in a sandbox cannot say its own. */
const PREVIEW_STYLE = raw(`<style>
.theme-preview{background:var(--card);border:1px solid var(--line);border-radius:10px;overflow:hidden;margin-bottom:18px}
.theme-preview iframe{display:block;width:100%;height:640px;border:0;background:#fff}
.theme-preview__bar{display:flex;flex-wrap:wrap;gap:6px 12px;align-items:center;justify-content:space-between;padding:8px 12px;border-bottom:1px solid var(--line)}
.theme-preview .templates{display:flex;flex-wrap:wrap;gap:6px;margin:0}.theme-preview .templates a,.theme-preview .templates strong{padding:4px 11px;border:1px solid var(--line);border-radius:999px;background:#fff;text-decoration:none}
.theme-preview .templates strong{background:#e0e7ff;border-color:#b6c3f2;color:#1e3a8a}
@media (max-width:700px){.theme-preview iframe{height:560px}}
</style>`);

/**
 * The theme page's preview: a template picker (the templates the theme has; links, so it works
 * without script), the frame, and the same preview in a new tab.
 */
export function catalogPreview(s: CatalogPage, t: { slug: string; name: string; templates: readonly string[] }): Markup {
  const templates = TEMPLATE_KEYS.filter((k) => t.templates.includes(k));
  const asked = askedTemplate(s);
  const template = templates.includes(asked) ? asked : (templates[0] ?? 'home');
  const frame = withQuery(catalogPath(s, t.slug, '/preview'), { template });
  return html`${PREVIEW_STYLE}
    <section class="theme-preview" id="preview" aria-labelledby="preview-h">
      <div class="theme-preview__bar">
        <h2 id="preview-h" style="margin:0;font-size:1rem">Preview with your products</h2>
        <a href="${frame}" target="_blank" rel="noopener">Open the preview in a new tab</a>
      </div>
      <div class="theme-preview__bar">
        <nav class="templates" aria-label="Templates to preview">
          ${templates.map((k) =>
            k === template
              ? html`<strong aria-current="page">${templateName(k)}</strong>`
              : html`<a href="${withQuery(catalogPath(s, t.slug), { template: k })}#preview">${templateName(k)}</a>`,
          )}
        </nav>
      </div>
      <iframe title="${`Preview of ${t.name}: ${templateName(template)}`}" src="${frame}" sandbox="allow-scripts"></iframe>
      <p class="muted" style="margin:0;padding:8px 12px">${t.name} as your shop would show it, with its default settings. Nothing is installed until you install it.</p>
    </section>`;
}
