import { escapeHtml, formatMoney } from '../rendering/index.js';

/**
 * The shop's own pages (checkout, account, errors): the platform's, not the theme's, as a hosted
 * checkout is (docs/shop.md, Built-in pages). One stylesheet inline, no script: every page works
 * without JavaScript. Text is escaped here or by the caller (`html` values are trusted markup).
 */

/** Markup built by this module: what `page` and the helpers take as trusted. */
export type Html = { html: string };
export const html = (markup: string): Html => ({ html: markup });
/** Text (escaped) or markup (as is). */
const out = (v: string | Html) => (typeof v === 'string' ? escapeHtml(v) : v.html);
export const join = (parts: readonly (string | Html)[]): Html => html(parts.map(out).join(''));
export const money = (minor: number, currency: string) => escapeHtml(formatMoney(minor, currency));

const STYLE = `
:root{--ink:#1d1d1f;--muted:#5c5c62;--line:#d9d9de;--bg:#f6f5f2;--card:#fff;--accent:#1f4e3d;--accent-ink:#fff;--error:#a4161a}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--accent)}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.shop-header{background:var(--card);border-bottom:1px solid var(--line)}
.shop-header__inner{max-width:1040px;margin:0 auto;padding:18px 24px;display:flex;align-items:center;justify-content:space-between;gap:16px}
.shop-header__name{font-size:1.35rem;font-weight:700;color:var(--ink);text-decoration:none;letter-spacing:.01em}
.shop-header nav{display:flex;gap:18px;font-size:.95rem}
main{max-width:1040px;margin:0 auto;padding:32px 24px 64px}
h1{font-size:1.75rem;line-height:1.2;margin:0 0 20px}h2{font-size:1.15rem;margin:28px 0 12px}
.steps{display:flex;gap:10px;list-style:none;padding:0;margin:0 0 24px;font-size:.9rem;color:var(--muted)}
.steps li+li::before{content:"›";margin-right:10px}.steps [aria-current]{color:var(--ink);font-weight:600}
.layout{display:grid;grid-template-columns:minmax(0,1.4fr) minmax(0,1fr);gap:40px;align-items:start}
@media (max-width:800px){.layout{grid-template-columns:1fr}}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:24px}
.field{display:flex;flex-direction:column;gap:6px;margin-bottom:14px}.field label{font-size:.9rem;font-weight:600}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
input[type=text],input[type=email],input[type=password],input[type=tel],select{font:inherit;padding:10px 12px;border:1px solid #8e8e96;border-radius:6px;background:#fff;color:var(--ink);width:100%}
.choice{display:flex;gap:12px;align-items:center;justify-content:space-between;padding:14px;border:1px solid var(--line);border-radius:8px;margin-bottom:10px;background:#fff}
.choice label{display:flex;gap:10px;align-items:center;flex:1;cursor:pointer}
.button{display:inline-block;font:inherit;font-weight:600;padding:12px 22px;border-radius:6px;border:0;background:var(--accent);color:var(--accent-ink);text-decoration:none;cursor:pointer}
.button--secondary{background:transparent;color:var(--accent);border:1px solid var(--accent)}
.summary table{width:100%;border-collapse:collapse}.summary td{padding:8px 0;border-bottom:1px solid var(--line);vertical-align:top}
.summary td:last-child{text-align:right;white-space:nowrap}.summary .total td{font-weight:700;font-size:1.1rem;border-bottom:0}
.muted{color:var(--muted)}.errors{border:1px solid var(--error);color:var(--error);background:#fff5f5;border-radius:8px;padding:12px 16px;margin-bottom:18px}
.errors ul{margin:6px 0 0;padding-left:20px}.notice{background:#eef6f1;border:1px solid #b7d7c6;border-radius:8px;padding:12px 16px;margin-bottom:18px}
.orders{width:100%;border-collapse:collapse;background:#fff}.orders th,.orders td{text-align:left;padding:10px;border-bottom:1px solid var(--line)}
.status{display:inline-block;padding:2px 10px;border-radius:999px;background:#eef0f3;font-size:.85rem}
`;

export type PageOptions = { storeName: string; title: string; body: Html; signedIn?: boolean; csrf?: string | null };

/** A whole built-in page: the store's name linking home, a small nav, the content. */
export function page(o: PageOptions): string {
  const account = o.signedIn
    ? `<form method="post" action="/account/logout" style="display:inline">${csrfField(o.csrf ?? null)}<button type="submit" class="button button--secondary" style="padding:4px 12px">Log out</button></form>`
    : '<a href="/account/login">Log in</a>';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(o.title)} – ${escapeHtml(o.storeName)}</title><meta name="robots" content="noindex"><style>${STYLE}</style></head>` +
    `<body><header class="shop-header"><div class="shop-header__inner"><a class="shop-header__name" href="/">${escapeHtml(o.storeName)}</a>` +
    `<nav aria-label="Shop"><a href="/collections/all">Shop</a><a href="/cart">Cart</a><a href="/account">Account</a>${account}</nav></div></header>` +
    `<main id="main">${o.body.html}</main></body></html>`
  );
}

export const csrfField = (token: string | null) => (token ? `<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">` : '');

/** A labelled input; `errors` by field name are shown under it. */
export function field(
  name: string,
  label: string,
  value: string | null | undefined,
  opts: { type?: string; required?: boolean; autocomplete?: string; errors?: ReadonlyMap<string, string> } = {},
): string {
  const id = `f-${name}`;
  const error = opts.errors?.get(name);
  return (
    `<div class="field"><label for="${id}">${escapeHtml(label)}${opts.required ? '' : ' <span class="muted">(optional)</span>'}</label>` +
    `<input id="${id}" name="${escapeHtml(name)}" type="${opts.type ?? 'text'}" value="${escapeHtml(value ?? '')}"${opts.required ? ' required' : ''}` +
    `${opts.autocomplete ? ` autocomplete="${opts.autocomplete}"` : ''}${error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>` +
    `${error ? `<span id="${id}-error" class="muted" style="color:var(--error)">${escapeHtml(error)}</span>` : ''}</div>`
  );
}

export function errorList(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  return `<div class="errors" role="alert"><strong>Please check the form.</strong><ul>${messages.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul></div>`;
}

/** An error page: the status's title, what happened, the way on. */
export function errorPage(storeName: string | null, status: number, message: string): string {
  const title = status === 404 ? 'Page not found' : status === 403 ? 'Not allowed' : status >= 500 ? 'Something went wrong' : 'That did not work';
  const body = html(
    `<div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>` +
      `<p><a class="button" href="/">Continue shopping</a> <a class="button button--secondary" href="/search">Search the store</a></p></div>`,
  );
  return page({ storeName: storeName ?? 'Store', title, body });
}
