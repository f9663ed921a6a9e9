import { escapeHtml } from '../html.js';
import type { AppContext } from './context.js';

/**
 * The platform's own pages outside the shop (docs/console.md): merchant sign-in, the OAuth consent
 * page, the operator console. Server-rendered, one inline stylesheet, no script needed (a page may
 * add a small one, e.g. the overview's refresh). Text is escaped by `escapeHtml`; `Markup` is
 * trusted HTML built by the platform.
 */

/** HTML built by the platform (trusted), as opposed to text (escaped). */
export type Markup = { readonly html: string };
export const markup = (html: string): Markup => ({ html });
/** Text escaped, markup as is, joined. */
export const join = (...parts: (string | Markup)[]): Markup => markup(parts.map((p) => (typeof p === 'string' ? escapeHtml(p) : p.html)).join(''));

const STYLE = `
:root{--ink:#17181c;--muted:#5b5e66;--line:#d8dae0;--bg:#f4f5f7;--card:#fff;--accent:#2b4acb;--accent-ink:#fff;--ok:#176b3a;--warn:#8a5a00;--bad:#a4161a}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--accent)}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.top{background:#111827;color:#fff}.top__inner{max-width:1200px;margin:0 auto;padding:12px 24px;display:flex;gap:24px;align-items:center}
.top__brand{font-weight:700;color:#fff;text-decoration:none;font-size:1.05rem}.top nav{display:flex;gap:16px;flex-wrap:wrap;flex:1}
.top nav a{color:#d1d5db;text-decoration:none}.top nav a[aria-current]{color:#fff;font-weight:600;border-bottom:2px solid #fff}
.top__user{display:flex;gap:12px;align-items:center;color:#d1d5db;font-size:.9rem}
main{max-width:1200px;margin:0 auto;padding:28px 24px 64px}h1{font-size:1.6rem;margin:0 0 18px}h2{font-size:1.15rem;margin:26px 0 10px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px;margin-bottom:18px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:14px}
.stat{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px}.stat__label{color:var(--muted);font-size:.85rem}.stat__value{font-size:1.5rem;font-weight:700}
table{width:100%;border-collapse:collapse;background:var(--card)}th,td{text-align:left;padding:9px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.badge{display:inline-block;padding:1px 9px;border-radius:999px;font-size:.8rem;background:#e5e7eb}
.badge--ok{background:#dcfce7;color:var(--ok)}.badge--warn{background:#fef3c7;color:var(--warn)}.badge--bad{background:#fee2e2;color:var(--bad)}
.field{display:flex;flex-direction:column;gap:5px;margin-bottom:14px}.field label{font-weight:600;font-size:.9rem}
input[type=text],input[type=email],input[type=password],input[type=search],select,textarea{font:inherit;padding:9px 11px;border:1px solid #8b8f99;border-radius:6px;background:#fff;color:var(--ink);width:100%}
.button{display:inline-block;font:inherit;font-weight:600;padding:9px 18px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);text-decoration:none;cursor:pointer}
.button--secondary{background:#fff;color:var(--accent)}.button--danger{background:var(--bad);border-color:var(--bad)}
.actions{display:flex;gap:10px;align-items:center;flex-wrap:wrap}.muted{color:var(--muted)}
.errors{border:1px solid var(--bad);color:var(--bad);background:#fff5f5;border-radius:8px;padding:10px 14px;margin-bottom:16px}
.notice{border:1px solid #b6c3f2;background:#eef2ff;border-radius:8px;padding:10px 14px;margin-bottom:16px}
.pager{display:flex;gap:12px;margin-top:14px}.narrow{max-width:460px;margin:40px auto}
pre{white-space:pre-wrap;word-break:break-word;background:#f8f9fb;border:1px solid var(--line);border-radius:6px;padding:10px;font-size:.85rem}
`;

export type PageOptions = {
  title: string;
  body: Markup;
  /** Links of the top bar, the current one marked; none on sign-in and consent pages. */
  nav?: readonly { href: string; label: string; current?: boolean }[];
  /** The signed-in merchant's email and the log-out form's CSRF token, shown at the right of the top bar. */
  user?: { email: string; csrf: string };
  /** A small script of the page's own (inline; the page works without it). */
  script?: string;
};

/** A whole page of the platform's own (not a store's). */
export function platformPage(o: PageOptions): string {
  const nav = (o.nav ?? []).map((l) => `<a href="${escapeHtml(l.href)}"${l.current ? ' aria-current="page"' : ''}>${escapeHtml(l.label)}</a>`).join('');
  const user = o.user
    ? `<div class="top__user"><span>${escapeHtml(o.user.email)}</span><form method="post" action="/logout">${csrfInput(o.user.csrf)}<button class="button button--secondary" type="submit" style="padding:3px 10px">Log out</button></form></div>`
    : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${escapeHtml(o.title)} – Emporium</title><style>${STYLE}</style></head><body>` +
    `<header class="top"><div class="top__inner"><a class="top__brand" href="/">Emporium</a><nav aria-label="Main">${nav}</nav>${user}</div></header>` +
    `<main id="main">${o.body.html}</main>${o.script ? `<script>${o.script}</script>` : ''}</body></html>`
  );
}

export const csrfInput = (token: string | null) => (token ? `<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">` : '');

/**
 * Answer a platform page: HTML, never cached, never framed (`frame-ancestors 'none'` and
 * `X-Frame-Options: DENY`: clickjacking), no referrer beyond the origin.
 */
export function sendPage(ctx: AppContext, status: number, html: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', "frame-ancestors 'none'; form-action 'self' https: http:");
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.body = html;
}
