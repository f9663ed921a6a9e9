import { html, raw, type Markup } from '../html.js';
import type { Problem } from '../http/pages.js';
import { problemText } from '../http/page-errors.js';
import { flashNotice } from '../http/ui/flash.js';
import { csrfInput } from '../http/ui/forms.js';
import { formatMoney } from '../rendering/index.js';
import type { Shop } from './context.js';
import { PLAIN_LOOK, type ShopLook } from './look.js';

/**
 * The shop's own pages (checkout, account, errors): the platform's, not the theme's, as a hosted
 * checkout is (docs/shop.md, Built-in pages), with a look of their own (the store's name at the
 * top, the shop's stylesheet in the live theme's colours and fonts), built from the pages' toolkit: the `html` tag, its forms, its page
 * list. One stylesheet inline, no script: every page works without JavaScript.
 */

export const money = (minor: number, currency: string) => formatMoney(minor, currency);

const STYLE = raw(`<style>
:root{--ink:#1d1d1f;--bg:#f6f5f2;--accent:#1f4e3d;--accent-ink:#fff;--error:#a4161a;--font-body:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--font-heading:var(--font-body)}
:root{--muted:color-mix(in srgb,var(--ink) 72%,var(--bg));--line:color-mix(in srgb,var(--ink) 16%,var(--bg));--card:color-mix(in srgb,var(--ink) 3%,var(--bg));--field:color-mix(in srgb,var(--ink) 55%,var(--bg))}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 var(--font-body);color:var(--ink);background:var(--bg)}
a{color:var(--accent)}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:8px;top:-48px;background:var(--bg);padding:8px 12px;border-radius:6px}.skip:focus{top:8px}
.shop-header{position:relative;background:var(--bg);border-bottom:1px solid var(--line)}
.shop-header__inner{max-width:1040px;margin:0 auto;padding:14px 24px;display:flex;align-items:center;gap:16px;min-height:64px}
.shop-header__name{flex:1;min-width:0;font:700 1.35rem/1.2 var(--font-heading);color:var(--ink);text-decoration:none;letter-spacing:.01em;overflow-wrap:anywhere;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden}
.shop-header__nav{display:flex;gap:18px;font-size:.95rem;align-items:center}.shop-header__cart{flex:none;white-space:nowrap;font-size:.95rem}
.shop-menu{display:none;flex:none}.shop-menu>summary{display:inline-flex;align-items:center;gap:6px;min-height:44px;padding:0 6px;margin-left:-6px;list-style:none;cursor:pointer;border-radius:6px}
.shop-menu>summary::-webkit-details-marker{display:none}.shop-menu[open]>summary{background:var(--card)}
.shop-menu__panel{position:absolute;left:0;right:0;top:100%;z-index:5;background:var(--bg);border-bottom:1px solid var(--line);padding:4px 16px 16px}
.shop-menu__panel ul{list-style:none;margin:0;padding:0}.shop-menu__panel li{border-bottom:1px solid var(--line)}.shop-menu__panel a,.shop-menu__panel .link{display:block;padding:12px 0;font-size:1.05rem}
.link{background:none;border:0;font:inherit;color:var(--accent);text-decoration:underline;cursor:pointer;padding:0}
main{max-width:1040px;margin:0 auto;padding:32px 24px 64px}
h1{font:600 1.75rem/1.2 var(--font-heading);margin:0 0 20px;overflow-wrap:anywhere}h2{font-family:var(--font-heading);font-size:1.15rem;margin:28px 0 12px}
.steps{display:flex;gap:10px;list-style:none;padding:0;margin:0 0 24px;font-size:.9rem;color:var(--muted);flex-wrap:wrap}
.steps li+li::before{content:"›";margin-right:10px}.steps [aria-current]{color:var(--ink);font-weight:600}
.layout{display:grid;grid-template-columns:minmax(0,1.4fr) minmax(0,1fr);gap:40px;align-items:start}
@media (max-width:800px){.layout{grid-template-columns:minmax(0,1fr);gap:24px}.shop-menu{display:block}.shop-header__nav{display:none}.shop-header__inner{gap:12px}}
@media (max-width:480px){main{padding:24px 16px 48px}.shop-header__inner{padding:10px 16px}.shop-header__name{font-size:1.15rem}.card{padding:16px}.row{grid-template-columns:minmax(0,1fr)}.choice{flex-wrap:wrap}}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:24px;min-width:0}
.field{display:flex;flex-direction:column;gap:6px;margin-bottom:14px;min-width:0}.field label{font-size:.9rem;font-weight:600}
.field__error{color:var(--error);font-size:.9rem}.field__hint{color:var(--muted);font-size:.85rem}
.row{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px}
input[type=text],input[type=email],input[type=password],input[type=tel],select{font:inherit;padding:10px 12px;border:1px solid var(--field);border-radius:6px;background:var(--bg);color:var(--ink);width:100%;max-width:100%;min-width:0}
[aria-invalid=true]{border-color:var(--error)}
.choice{display:flex;gap:12px;align-items:center;justify-content:space-between;padding:14px;border:1px solid var(--line);border-radius:8px;margin-bottom:10px;background:var(--bg)}
.choice label{display:flex;gap:10px;align-items:center;flex:1;min-width:0;cursor:pointer}
.button{display:inline-block;font:inherit;font-weight:600;padding:12px 22px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);text-decoration:none;cursor:pointer;text-align:center;max-width:100%}
.button--secondary{background:transparent;color:var(--accent)}.button--small{padding:4px 12px}
@media (max-width:480px){form>p>.button,.card>p>.button{width:100%;margin-bottom:8px}}
.summary table{width:100%;border-collapse:collapse}.summary td{padding:8px 0;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
.summary td:last-child{text-align:right;white-space:nowrap;padding-left:12px}.summary .total td{font-weight:700;font-size:1.1rem;border-bottom:0}
.muted{color:var(--muted)}.errors{border:1px solid var(--error);color:var(--error);background:color-mix(in srgb,var(--error) 5%,var(--bg));border-radius:8px;padding:12px 16px;margin-bottom:18px}
.errors ul{margin:6px 0 0;padding-left:20px}.notice{background:color-mix(in srgb,var(--accent) 8%,var(--bg));border:1px solid color-mix(in srgb,var(--accent) 35%,var(--bg));border-radius:8px;padding:12px 16px;margin-bottom:18px}
.table-wrap{overflow-x:auto;max-width:100%;background:var(--bg);border:1px solid var(--line);border-radius:8px}
.orders{width:100%;border-collapse:collapse}.orders th,.orders td{text-align:left;padding:10px;border-bottom:1px solid var(--line)}
@media (max-width:600px){.orders thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.orders,.orders tbody,.orders tr,.orders td{display:block}
.orders tr{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:4px 12px;padding:12px;border-bottom:1px solid var(--line)}.orders td{padding:0;border:0}
.orders td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.85rem}}
.status{display:inline-block;padding:2px 10px;border-radius:999px;background:color-mix(in srgb,var(--ink) 8%,var(--bg));font-size:.85rem;white-space:nowrap}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
</style>`);

export type ShopPageOptions = {
  storeName: string;
  title: string;
  body: Markup;
  signedIn?: boolean;
  csrf?: string | null;
  flash?: string | null;
  /** The live theme's colours, fonts and favicon (src/shop/look.ts); the shop's own without. */
  look?: ShopLook;
};

/**
 * A whole built-in page: the store's name linking home, a small nav (Shop, Account or Log in, Log
 * out when signed in) that folds into a `<details>` menu on a narrow screen, the cart always in
 * the header, the content.
 */
export function shopPage(o: ShopPageOptions): Markup {
  const look = o.look ?? PLAIN_LOOK;
  const logOut = (cls: string) =>
    html`<form method="post" action="/account/logout" style="display:inline">
      ${csrfInput(o.csrf ?? null)}<button type="submit" class="${cls}">Log out</button>
    </form>`;
  const account = o.signedIn ? html`<a href="/account">Account</a>` : html`<a href="/account/login">Log in</a>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>${o.title} – ${o.storeName}</title>
        <meta name="robots" content="noindex">
        ${look.favicon ? html`<link rel="icon" href="${look.favicon.url}" type="${look.favicon.content_type}">` : null}
        ${STYLE}${look.vars ? raw(`<style>:root{${look.vars}}</style>`) : null}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="shop-header">
          <div class="shop-header__inner">
            <details class="shop-menu">
              <summary>
                <svg aria-hidden="true" focusable="false" viewBox="0 0 20 20" width="20" height="20">
                  <path d="M2 5h16M2 10h16M2 15h16" stroke="currentColor" stroke-width="2" fill="none" />
                </svg>
                Menu
              </summary>
              <nav class="shop-menu__panel" aria-label="Shop menu">
                <ul>
                  <li><a href="/collections/all">Shop</a></li>
                  <li><a href="/search">Search</a></li>
                  <li>${account}</li>
                  ${o.signedIn ? html`<li>${logOut('link')}</li>` : null}
                </ul>
              </nav>
            </details>
            <a class="shop-header__name" href="/">${o.storeName}</a>
            <nav class="shop-header__nav" aria-label="Shop">
              <a href="/collections/all">Shop</a>${account}${o.signedIn ? logOut('button button--secondary button--small') : null}
            </nav>
            <a class="shop-header__cart" href="/cart">Cart</a>
          </div>
        </header>
        <main id="main">${o.flash ? flashNotice(o.flash) : null}${o.body}</main>
      </body>
    </html>`;
}

/**
 * An error page of the shop: the status's title, what happened (a 404 in the shop's words), the
 * request id, the way on; in the live theme's look, and knowing a signed-in customer, once the
 * visitor is known (`shop`).
 */
export function shopErrorPage(storeName: string | null, problem: Problem, shop?: Pick<Shop, 'customer' | 'look' | 'csrf'>): Markup {
  const message =
    problem.status === 404
      ? storeName
        ? 'The page you were looking for does not exist, or it is no longer for sale.'
        : 'There is no store at this address.'
      : problem.message;
  const body = html`<div class="card">
    ${problemText(problem, message)}
    <p><a class="button" href="/">Continue shopping</a> <a class="button button--secondary" href="/search">Search the store</a></p>
  </div>`;
  return shopPage({
    storeName: storeName ?? 'Store',
    title: problem.title,
    body,
    ...(shop ? { signedIn: shop.customer !== null, look: shop.look, csrf: shop.csrf } : {}),
  });
}
