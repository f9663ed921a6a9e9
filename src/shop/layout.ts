import { html, raw, type Markup } from '../html.js';
import type { Problem } from '../http/pages.js';
import { problemText } from '../http/page-errors.js';
import { flashNotice } from '../http/ui/flash.js';
import { csrfInput } from '../http/ui/forms.js';
import { formatMoney } from '../rendering/index.js';

/**
 * The shop's own pages (checkout, account, errors): the platform's, not the theme's, as a hosted
 * checkout is (docs/shop.md, Built-in pages), with a look of their own (the store's name at the
 * top, a quiet shop style), built from the pages' toolkit: the `html` tag, its forms, its page
 * list. One stylesheet inline, no script: every page works without JavaScript.
 */

export const money = (minor: number, currency: string) => formatMoney(minor, currency);

const STYLE = raw(`<style>
:root{--ink:#1d1d1f;--muted:#5c5c62;--line:#d9d9de;--bg:#f6f5f2;--card:#fff;--accent:#1f4e3d;--accent-ink:#fff;--error:#a4161a}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--accent)}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.skip{position:absolute;left:8px;top:-48px;background:#fff;padding:8px 12px;border-radius:6px}.skip:focus{top:8px}
.shop-header{background:var(--card);border-bottom:1px solid var(--line)}
.shop-header__inner{max-width:1040px;margin:0 auto;padding:18px 24px;display:flex;align-items:center;justify-content:space-between;gap:16px;flex-wrap:wrap}
.shop-header__name{font-size:1.35rem;font-weight:700;color:var(--ink);text-decoration:none;letter-spacing:.01em;overflow-wrap:anywhere}
.shop-header nav{display:flex;gap:18px;font-size:.95rem;align-items:center;flex-wrap:wrap}
main{max-width:1040px;margin:0 auto;padding:32px 24px 64px}
h1{font-size:1.75rem;line-height:1.2;margin:0 0 20px;overflow-wrap:anywhere}h2{font-size:1.15rem;margin:28px 0 12px}
.steps{display:flex;gap:10px;list-style:none;padding:0;margin:0 0 24px;font-size:.9rem;color:var(--muted);flex-wrap:wrap}
.steps li+li::before{content:"›";margin-right:10px}.steps [aria-current]{color:var(--ink);font-weight:600}
.layout{display:grid;grid-template-columns:minmax(0,1.4fr) minmax(0,1fr);gap:40px;align-items:start}
@media (max-width:800px){.layout{grid-template-columns:minmax(0,1fr)}}
@media (max-width:480px){main{padding:24px 16px 48px}.shop-header__inner{padding:14px 16px}.card{padding:18px}.row{grid-template-columns:minmax(0,1fr)}}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:24px}
.field{display:flex;flex-direction:column;gap:6px;margin-bottom:14px}.field label{font-size:.9rem;font-weight:600}
.field__error{color:var(--error);font-size:.9rem}.field__hint{color:var(--muted);font-size:.85rem}
.row{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px}
input[type=text],input[type=email],input[type=password],input[type=tel],select{font:inherit;padding:10px 12px;border:1px solid #8e8e96;border-radius:6px;background:#fff;color:var(--ink);width:100%}
[aria-invalid=true]{border-color:var(--error)}
.choice{display:flex;gap:12px;align-items:center;justify-content:space-between;padding:14px;border:1px solid var(--line);border-radius:8px;margin-bottom:10px;background:#fff}
.choice label{display:flex;gap:10px;align-items:center;flex:1;cursor:pointer}
.button{display:inline-block;font:inherit;font-weight:600;padding:12px 22px;border-radius:6px;border:0;background:var(--accent);color:var(--accent-ink);text-decoration:none;cursor:pointer}
.button--secondary{background:transparent;color:var(--accent);border:1px solid var(--accent)}.button--small{padding:4px 12px}
.summary table{width:100%;border-collapse:collapse}.summary td{padding:8px 0;border-bottom:1px solid var(--line);vertical-align:top}
.summary td:last-child{text-align:right;white-space:nowrap}.summary .total td{font-weight:700;font-size:1.1rem;border-bottom:0}
.muted{color:var(--muted)}.errors{border:1px solid var(--error);color:var(--error);background:#fff5f5;border-radius:8px;padding:12px 16px;margin-bottom:18px}
.errors ul{margin:6px 0 0;padding-left:20px}.notice{background:#eef6f1;border:1px solid #b7d7c6;border-radius:8px;padding:12px 16px;margin-bottom:18px}
.table-wrap{overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:8px}
.orders{width:100%;border-collapse:collapse}.orders th,.orders td{text-align:left;padding:10px;border-bottom:1px solid var(--line)}
.status{display:inline-block;padding:2px 10px;border-radius:999px;background:#eef0f3;font-size:.85rem;white-space:nowrap}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
</style>`);

export type ShopPageOptions = { storeName: string; title: string; body: Markup; signedIn?: boolean; csrf?: string | null; flash?: string | null };

/** A whole built-in page: the store's name linking home, a small nav, the content. */
export function shopPage(o: ShopPageOptions): Markup {
  const account = o.signedIn
    ? html`<form method="post" action="/account/logout" style="display:inline">
        ${csrfInput(o.csrf ?? null)}<button type="submit" class="button button--secondary button--small">Log out</button>
      </form>`
    : html`<a href="/account/login">Log in</a>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>${o.title} – ${o.storeName}</title>
        <meta name="robots" content="noindex">
        ${STYLE}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="shop-header">
          <div class="shop-header__inner">
            <a class="shop-header__name" href="/">${o.storeName}</a>
            <nav aria-label="Shop"><a href="/collections/all">Shop</a><a href="/cart">Cart</a><a href="/account">Account</a>${account}</nav>
          </div>
        </header>
        <main id="main">${o.flash ? flashNotice(o.flash) : null}${o.body}</main>
      </body>
    </html>`;
}

/** An error page of the shop: the status's title, what happened (a 404 in the shop's words), the request id, the way on. */
export function shopErrorPage(storeName: string | null, problem: Problem): Markup {
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
  return shopPage({ storeName: storeName ?? 'Store', title: problem.title, body });
}
