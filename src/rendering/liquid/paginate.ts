import { escapeHtml } from '../../html.js';
import { type PaginateObject } from '../../liquid-paginate.js';
import type { PageListing } from '../listing.js';

export { paginateTag, type PaginateObject } from '../../liquid-paginate.js';

/**
 * Shopify's `{% paginate collection.products by N %}…{% endpaginate %}` and the
 * `default_pagination` filter (docs/rendering.md, Pagination). The page's listing is read before
 * the theme renders (src/rendering/page.ts: its size is the `by` of the collection section's
 * tag, a number or `section.settings.<id>`, read from the source), so inside the tag
 * `collection.products` (and `search.results`) already is the page asked for and `paginate` is
 * the page's: current_page, current_offset, items, pages, page_size, previous/next
 * ({ title, url, is_link }, absent on the first/last page) and parts.
 */

/** The `paginate` object of a page's listing. */
export function paginateObject(l: PageListing, t: (key: string) => string | null | undefined): PaginateObject {
  return {
    current_page: l.current_page,
    current_offset: (l.current_page - 1) * l.page_size,
    items: l.items,
    pages: l.pages,
    page_size: l.page_size,
    ...(l.previous_url ? { previous: { title: t('general.previous') ?? '« Previous', url: l.previous_url, is_link: true as const } } : {}),
    ...(l.next_url ? { next: { title: t('general.next') ?? 'Next »', url: l.next_url, is_link: true as const } } : {}),
    parts: l.parts.map((p) => ({ title: p.title, url: p.url ?? '', is_link: p.is_link })),
  };
}

/**
 * `{{ paginate | default_pagination }}`: Shopify's markup (spans of class prev, page, current,
 * deco, next), its links with `rel="prev"`/`rel="next"`; nothing for one page.
 */
export function defaultPagination(value: unknown): string {
  const p = value as Partial<PaginateObject> | null;
  if (!p || typeof p !== 'object' || !Array.isArray(p.parts) || (p.pages ?? 1) <= 1) return '';
  const link = (url: string, label: string, rel?: string) => `<a href="${escapeHtml(url)}"${rel ? ` rel="${rel}"` : ''}>${escapeHtml(label)}</a>`;
  const out: string[] = [];
  if (p.previous) out.push(`<span class="prev">${link(p.previous.url, p.previous.title, 'prev')}</span>`);
  for (const part of p.parts) {
    if (part.is_link) {
      const rel = part.url === p.previous?.url ? 'prev' : part.url === p.next?.url ? 'next' : undefined;
      out.push(`<span class="page">${link(part.url, part.title, rel)}</span>`);
    } else
      out.push(
        part.title === String(p.current_page)
          ? `<span class="page current">${escapeHtml(part.title)}</span>`
          : `<span class="deco">${escapeHtml(part.title)}</span>`,
      );
  }
  if (p.next) out.push(`<span class="next">${link(p.next.url, p.next.title, 'next')}</span>`);
  return out.join(' ');
}
