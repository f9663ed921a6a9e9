import { escapeHtml, safeHref } from '../html.js';
import type { RenderedBlock } from './sections.js';

/*
 * Pure: the render threads import this file (render-thread.ts imports no domain, no database),
 * so what reads the store's registry is app-block-resolution.ts.
 */

/** The settings an app block renders from: its extension's config gives each a default, the theme's block settings win. */
const APP_BLOCK_FIELDS = ['kind', 'heading', 'body', 'cta_label', 'cta_href', 'iframe_url'] as const;

/** The block settings an extension's config gives: the APP_BLOCK_FIELDS it names. */
export const appBlockDefaults = (config: Record<string, unknown>) =>
  Object.fromEntries(APP_BLOCK_FIELDS.flatMap((f) => (Object.hasOwn(config, f) ? [[f, config[f]]] : [])));

/**
 * An app block (docs/rendering.md, App blocks), in a section that accepts them: `heading`,
 * `body` (text), a call to action (`cta_label`, `cta_href`: https or a site path), or an
 * `iframe_url` (https only) shown in a sandboxed iframe: scripts and forms run in an opaque
 * origin (no `allow-same-origin`), no top navigation, no popups, no referrer.
 */
export function renderAppBlock(block: RenderedBlock): string {
  // Nothing of an unavailable block reaches the page but a comment naming its type (well formed by the bundle rules; stripped to be sure).
  if (block.unavailable) return `<!-- app block unavailable: ${block.type.replace(/[^a-z0-9@/-]/g, '')} -->`;
  const s = block.settings;
  const text = (key: 'heading' | 'body' | 'cta_label') => (typeof s[key] === 'string' ? (s[key] as string) : '');
  const parts: string[] = [];
  if (text('heading')) parts.push(`<h3 class="app-block__heading">${escapeHtml(text('heading'))}</h3>`);
  if (text('body')) parts.push(`<p class="app-block__body">${escapeHtml(text('body'))}</p>`);
  const iframe = httpsUrl(s.iframe_url);
  if (iframe) {
    parts.push(
      `<iframe class="app-block__frame" src="${escapeHtml(iframe)}" sandbox="allow-scripts allow-forms" referrerpolicy="no-referrer" loading="lazy" title="${escapeHtml(text('heading') || 'App block')}"></iframe>`,
    );
  }
  const href = safeHref(s.cta_href);
  if (text('cta_label') && href && (href.startsWith('/') || href.startsWith('https:'))) {
    parts.push(`<a class="app-block__cta button" href="${escapeHtml(href)}" rel="noopener noreferrer">${escapeHtml(text('cta_label'))}</a>`);
  }
  return `<div class="app-block" data-block-id="${escapeHtml(block.id)}" data-block-type="${escapeHtml(block.type)}">${parts.join('')}</div>`;
}

function httpsUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !url.username && !url.password ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The app blocks quality gate (docs/extensions.md, Quality gates): a theme_app_block extension's
 * config rendered as the block of a store's theme with no settings of its own, by the renderer
 * both engines use, and what did not make it to the page. A block passes when it renders
 * something and every field its config declares renders: text fields are text, an `iframe_url`
 * is https, a call to action has both its label and an https or site `cta_href`.
 */
export function checkAppBlockRendering(appHandle: string, blockHandle: string, config: Record<string, unknown>): { ok: boolean; problems: string[] } {
  const settings = appBlockDefaults(config);
  const problems: string[] = [];
  let html = '';
  try {
    html = renderAppBlock({ id: 'quality-check', type: `@app/${appHandle}/${blockHandle}`, settings, app: true });
  } catch (err) {
    return { ok: false, problems: [`the block failed to render: ${(err as Error).message}`] };
  }
  for (const field of ['heading', 'body', 'cta_label', 'cta_href', 'iframe_url'] as const)
    if (Object.hasOwn(settings, field) && typeof settings[field] !== 'string') problems.push(`${field}: must be text; it does not render`);
  if (typeof settings.iframe_url === 'string' && !html.includes('<iframe')) problems.push('iframe_url: must be an https URL; it does not render');
  const hasLabel = typeof settings.cta_label === 'string' && settings.cta_label !== '';
  const hasHref = typeof settings.cta_href === 'string' && settings.cta_href !== '';
  if ((hasLabel || hasHref) && !html.includes('app-block__cta'))
    problems.push(
      hasLabel && hasHref
        ? 'cta_href: must be an https URL or a path of the store (/…); the call to action does not render'
        : 'cta_label and cta_href: a call to action needs both; it does not render',
    );
  if (!/<(h3|p|iframe|a)\b/.test(html)) problems.push('the block renders nothing: give it a heading, a body, a call to action or an iframe_url');
  return { ok: problems.length === 0, problems };
}
