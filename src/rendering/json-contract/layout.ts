import { escapeHtml, safeHref } from '../../html.js';
import { listingHeadLinks } from '../listing.js';
import { sanitizeMerchantHtml } from '../../merchant-html.js';
import { ownValue } from '../../own-keys.js';
import { cssName, cssVariables } from './css.js';
import { faviconLink, themeFavicon } from '../theme-look.js';
import { searchForm, text, type JsonContractEnv } from './parts.js';

/** The header's links: the main menu (each link's URL an http(s) URL or a site path, else left out), or "Shop all" when the store has no menu. */
function menuLinks(env: JsonContractEnv, cls: string): string {
  const links = env.page.menu.length > 0 ? env.page.menu : [{ title: env.t('general.shop_all') ?? 'Shop all', url: '/collections/all' }];
  return links
    .flatMap((l) => {
      const href = safeHref(l.url);
      return href ? [`<li class="${cls}__item"><a class="${cls}__link" href="${escapeHtml(href)}">${escapeHtml(l.title)}</a></li>`] : [];
    })
    .join('');
}

/** The page's title: the product, collection, search or page, then the store. */
function pageTitle(env: JsonContractEnv): string {
  const page = env.page;
  const title = page.search
    ? `${env.t('general.search') ?? 'Search'}: ${page.search.query}`
    : page.template === '404'
      ? (env.t('templates.404.title') ?? 'Page not found')
      : (page.product?.title ?? page.collection?.title ?? page.page?.title ?? (page.template === 'cart' ? (env.t('cart.title') ?? 'Your cart') : null));
  const n =
    page.listing && page.listing.current_page > 1
      ? ` – ${escapeHtml(env.t('general.page_n')?.replace('{{ page }}', String(page.listing.current_page)) ?? `Page ${page.listing.current_page}`)}`
      : '';
  return `${title ? `${escapeHtml(title)}${n} – ` : ''}${escapeHtml(page.store.name)}`;
}

/**
 * The page around the sections (docs/rendering.md, Markup contract): language, title, the theme's
 * CSS, its colour and size settings as CSS custom properties (with their units), its choices as
 * `data-setting-*` on `<body>`, its JS; a skip link, the header (store name, main menu, search,
 * account or log in, cart with its count; on a narrow screen a `<details>` menu), the sections in
 * `<main>` (or the platform's not-found body), the footer; the theme's favicon.
 */
export function renderJsonContractLayout(env: JsonContractEnv, settings: Record<string, unknown>, content: string): string {
  const css = env.bundle.renderer.assets
    .filter((a) => a.content_type === 'text/css')
    .map((a) => `<link rel="stylesheet" href="${escapeHtml(env.assetUrl(a.path))}">`);
  const js = env.bundle.renderer.assets
    .filter((a) => a.content_type === 'text/javascript')
    .map((a) => `<script src="${escapeHtml(env.assetUrl(a.path))}" defer></script>`);
  const fields = env.bundle.config.settings_schema.settings.flatMap((g) => g.settings);
  const vars = cssVariables(fields, settings).join(' ');
  const choices = fields
    .filter((f) => f.type === 'select' || f.type === 'radio' || f.type === 'toggle')
    .flatMap((f) => {
      const v = ownValue(settings, f.id);
      const name = cssName(f.id);
      return name && (typeof v === 'string' || typeof v === 'boolean') ? [` data-setting-${escapeHtml(name.slice(2))}="${escapeHtml(v)}"`] : [];
    })
    .join('');
  const favicon = themeFavicon(env.bundle, settings);
  const footerField = fields.find((f) => f.id === 'footer_text' && f.type === 'richtext');
  const footerText = footerField ? ownValue(settings, 'footer_text') : undefined;
  const store = escapeHtml(env.page.store.name);
  const itemCount = env.page.cart?.item_count ?? 0;
  // A signed-in customer's way to their account; everyone else's to log in (docs/rendering.md, Markup contract).
  const account = env.page.customer
    ? `<a class="site-header__account" href="/account">${text(env, 'general.account', 'Account')}</a>`
    : `<a class="site-header__account" href="/account/login">${text(env, 'general.log_in', 'Log in')}</a>`;
  const menuLabel = text(env, 'general.main_menu', 'Main menu');
  // On a narrow screen the menu, search and account fold into a <details> (no script needed); the cart stays in the header.
  const drawer =
    `<details class="menu-drawer"><summary class="menu-drawer__toggle"><svg class="menu-drawer__icon" aria-hidden="true" focusable="false" viewBox="0 0 20 20" width="20" height="20"><path d="M2 5h16M2 10h16M2 15h16" stroke="currentColor" stroke-width="2" fill="none"/></svg>` +
    `<span class="menu-drawer__label">${text(env, 'general.menu', 'Menu')}</span></summary>` +
    `<div class="menu-drawer__panel"><nav class="menu-drawer__nav" aria-label="${menuLabel}"><ul class="menu-drawer__list" role="list">${menuLinks(env, 'menu-drawer')}` +
    `<li class="menu-drawer__item">${account.replace('site-header__account', 'menu-drawer__link menu-drawer__account')}</li></ul></nav>` +
    `${searchForm(env, 'menu-drawer-search site-search', 'menu-drawer-search-q')}</div></details>`;
  const header =
    `<header class="site-header"><div class="site-header__inner page-width">${drawer}` +
    `<a class="site-header__logo" href="/">${store}</a>` +
    `<nav class="site-header__nav" aria-label="${menuLabel}"><ul class="site-nav" role="list">${menuLinks(env, 'site-nav')}</ul></nav>` +
    `<div class="site-header__actions">${searchForm(env, 'site-search', 'site-search-q')}${account}` +
    `<a class="site-header__cart" href="/cart">${text(env, 'general.cart', 'Cart')} <span class="site-header__cart-count">${itemCount}</span><span class="visually-hidden"> ${itemCount === 1 ? text(env, 'general.item', 'item') : text(env, 'general.items', 'items')}</span></a>` +
    `</div></div></header>`;
  const footer =
    `<footer class="site-footer"><div class="site-footer__inner page-width">` +
    `<div class="site-footer__brand"><p class="site-footer__store">${store}</p>${typeof footerText === 'string' && footerText ? `<div class="site-footer__text rte">${sanitizeMerchantHtml(footerText)}</div>` : ''}</div>` +
    `<nav class="site-footer__nav" aria-label="${text(env, 'general.footer_menu', 'Footer menu')}"><ul class="footer-nav" role="list">${menuLinks(env, 'footer-nav')}` +
    `<li class="footer-nav__item"><a class="footer-nav__link" href="/search">${text(env, 'general.search', 'Search')}</a></li></ul></nav>` +
    `<p class="site-footer__copyright">© ${store}</p></div></footer>`;
  return (
    `<!doctype html><html lang="${escapeHtml(env.page.locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${pageTitle(env)}</title>${faviconLink(favicon, favicon && env.assetUrl(favicon.path))}${listingHeadLinks(env.page.listing)}${css.join('')}<style>:root { ${vars} }</style>${js.join('')}</head>` +
    `<body class="template-${escapeHtml(env.page.template)}"${choices}><a class="skip-link" href="#main">${text(env, 'general.skip_to_content', 'Skip to content')}</a>` +
    `${header}<main id="main" class="site-main" tabindex="-1">${content}</main>${footer}</body></html>`
  );
}
