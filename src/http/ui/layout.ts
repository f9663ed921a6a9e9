import { html, type Markup } from '../../html.js';
import { csrfInput } from './forms.js';
import { flashNotice } from './flash.js';
import { scriptTag, type ScriptName } from './scripts.js';
import { PLATFORM_STYLE } from './style.js';

/**
 * The platform's own pages' layout (docs/console.md, Pages): a top bar (the brand, a slot of the
 * page's own, the signed-in merchant with Log out) and, for a tool with sections (the console, the
 * merchant admin), a left navigation that folds into a Menu toggle on a phone: a checkbox and its
 * label, so it works without JavaScript. A skip link first; the page's content in `<main>`.
 */

/** A link of the left navigation; `current` marks the section the page is in (`aria-current="page"`). */
export type NavItem = { href: string; label: string; current?: boolean };

export type LayoutOptions = {
  title: string;
  body: Markup;
  /** The left navigation (its accessible name and links); none on sign-in and consent pages, which are one column. */
  nav?: { label: string; items: readonly NavItem[] };
  /** The top bar's slot, between the brand and the merchant (the merchant admin's store switcher). */
  topBar?: Markup;
  /** The signed-in merchant: the email shown and the log-out form's CSRF token. */
  user?: { email: string; csrf: string };
  /** A flash message after a 303 (src/http/ui/flash.ts), shown once above the content. */
  flash?: string | null;
  /** The platform scripts the page runs (src/http/ui/scripts.ts); the page works without them unless it is script by nature. */
  scripts?: readonly ScriptName[];
};

/** A whole page of the platform's own (not a store's). */
export function platformPage(o: LayoutOptions): Markup {
  const nav = o.nav;
  const user = o.user
    ? html`<div class="top__user">
        <span class="top__email">${o.user.email}</span>
        <form method="post" action="/logout">${csrfInput(o.user.csrf)}<button class="button button--secondary" type="submit">Log out</button></form>
      </div>`
    : null;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="robots" content="noindex">
        <title>${o.title} – Emporium</title>
        ${PLATFORM_STYLE}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>${nav ? html`<input type="checkbox" id="menu-open" class="menu-open" aria-controls="side-nav">` : null}
        <header class="top">
          <div class="top__inner">
            ${nav ? html`<label class="top__menu" for="menu-open">Menu</label>` : null}<a class="top__brand" href="/">Emporium</a>
            <div class="top__slot">${o.topBar ?? null}</div>
            ${user}
          </div>
        </header>
        <div class="shell${nav ? ' shell--nav' : ''}">
          ${
            nav
              ? html`<nav class="side" id="side-nav" aria-label="${nav.label}">
                  <ul>
                    ${nav.items.map((l) => html`<li><a href="${l.href}"${l.current ? html` aria-current="page"` : null}>${l.label}</a></li>`)}
                  </ul>
                </nav>`
              : null
          }
          <main id="main" tabindex="-1">${o.flash ? flashNotice(o.flash) : null}${o.body}</main>
        </div>
        ${(o.scripts ?? []).map(scriptTag)}
      </body>
    </html>`;
}
