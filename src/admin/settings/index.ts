import { html, type Markup } from '../../html.js';
import { csrfInput, errorSummary, type FormState } from '../../http/ui/forms.js';
import { heading } from '../../http/ui/parts.js';
import { storePage } from '../layout.js';
import { storePath, type StorePage } from '../request.js';

/**
 * `/admin/stores/<id>/settings` (docs/admin.md, Settings): the store's settings pages as cards,
 * and the frame each of them shares (a link back here, its heading, its forms).
 */

/** The settings pages, in the landing page's order: `path` under the store's admin path, or (`/admin/…`) the merchant's own. */
const SETTINGS = [
  { path: '/settings/store', title: 'Store details', text: 'Name, language, currency and the shop’s address.' },
  { path: '/settings/shipping', title: 'Shipping', text: 'The rates checkout offers, by country or province and order subtotal.' },
  { path: '/settings/taxes', title: 'Taxes', text: 'Tax rates by country or province, and whether shipping is taxed.' },
  { path: '/settings/payments', title: 'Payments', text: 'The payment providers checkout offers, and their keys.' },
  { path: '/settings/locations', title: 'Locations', text: 'Where the store keeps stock and ships orders from.' },
  { path: '/settings/notifications', title: 'Notifications', text: 'The emails the store sends, their templates, and who they come from.' },
  { path: '/settings/webhooks', title: 'Webhooks', text: 'Subscriptions to the store’s events, their health and recent deliveries.' },
  { path: '/admin/account', title: 'Your account', text: 'Your name, your password, and signing out of other sessions.' },
] as const;

export function settingsHome(s: StorePage): void {
  const body = html`${heading('Settings', `How ${s.store.name} sells, charges and writes to its customers.`)}
    <div class="grid">
      ${SETTINGS.map(
        (c) =>
          html`<div class="card" style="margin:0">
            <h2 style="margin-top:0"><a href="${c.path.startsWith('/admin/') ? c.path : storePath(s.store, c.path)}">${c.title}</a></h2>
            <p class="muted" style="margin-bottom:0">${c.text}</p>
          </div>`,
      )}
    </div>`;
  s.render(storePage(s, 'settings', { title: 'Settings', body }));
}

/**
 * A settings page: a link back to Settings, its heading and lead, then its content; `status` 400
 * or 409 when a form is shown again. `wide` for rows of fields (a rate table), four to a line.
 */
export function settingsPage(s: StorePage, view: { title: string; lead?: string; body: Markup; wide?: boolean }, status = 200): void {
  // A form's lines read best at about this width; the page stays fluid below it (390 px).
  const body = html`<div style="max-width:${view.wide ? '1080px' : '760px'}">
    <p><a href="${storePath(s.store, '/settings')}">« Settings</a></p>
    ${heading(view.title, view.lead)}${view.body}
  </div>`;
  s.render(storePage(s, 'settings', { title: view.title, body }), status);
}

/** A settings form posting to `action`: the session's CSRF token, the form's problems above its fields, a Save button. */
export const settingsForm = (s: StorePage, o: { action: string; form: FormState; fields: Markup; button?: string }) =>
  html`<form class="card" method="post" action="${o.action}" novalidate>
    ${csrfInput(s.viewer.csrf)}${errorSummary(o.form.problems)}${o.fields}
    <button class="button" type="submit">${o.button ?? 'Save'}</button>
  </form>`;
