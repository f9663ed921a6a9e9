import { escapeHtml, safeHref } from './html.js';
import type { RenderedBlock } from './sections.js';

/**
 * An app block (docs/rendering.md, App blocks), in a section that accepts them: `heading`,
 * `body` (text), a call to action (`cta_label`, `cta_href`: https or a site path), or an
 * `iframe_url` (https only) shown in a sandboxed iframe: scripts and forms run in an opaque
 * origin (no `allow-same-origin`), no top navigation, no popups, no referrer.
 */
export function renderAppBlock(block: RenderedBlock): string {
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
