import { html } from '../../html.js';
import { blankForm, field, type FormState } from '../../http/ui/forms.js';
import { shopUrl } from '../../shop/index.js';
import { isCurrencyLocked, updateStore, UpdateStoreBody } from '../../stores/index.js';
import { parsedBody, refusedForm } from '../forms.js';
import { storePath, type StorePage } from '../request.js';
import { settingsForm, settingsPage } from './index.js';

/**
 * `/admin/stores/<id>/settings/store` (docs/admin.md, Settings): the store's name, locale and
 * currency through the stores service of `PATCH /v1/stores/:id` and its schema. The currency is
 * read-only once something is priced in it (the service's `currency_locked` rule, asked of the
 * service); the subdomain, and so the shop's address, never changes.
 */

const FIELDS: ReadonlySet<string> = new Set(['name', 'locale', 'currency']);

export async function storeDetailsPage(s: StorePage, form?: FormState, status = 200): Promise<void> {
  const locked = await isCurrencyLocked(s.platform, s.store.id);
  const shown = form ?? blankForm(new Map([...(locked ? [] : [['currency', s.store.currency] as const]), ['name', s.store.name], ['locale', s.store.locale]]));
  const shop = shopUrl(s.platform, s.ctx, s.store.subdomain);
  const fields = html`${field(shown, 'name', 'Store name', { required: true, autocomplete: 'organization' })}
    ${field(shown, 'locale', 'Language', { required: true, hint: 'A locale code the shop’s texts are in: en, fr, es-MX' })}
    ${
      locked
        ? html`<div class="field">
            <strong>Currency</strong>
            <span>${s.store.currency}: it cannot change now, because the store already has prices in it (products or gift cards).</span>
          </div>`
        : field(shown, 'currency', 'Currency', {
            required: true,
            hint: 'An ISO 4217 code such as USD or EUR; it cannot change once a product or gift card is priced in it',
          })
    }
    <div class="field">
      <strong>Shop address</strong>
      <a href="${shop}">${shop}</a>
      <span class="muted">The subdomain ${s.store.subdomain} cannot change: links, bookmarks and installed apps depend on it.</span>
    </div>`;
  const body = settingsForm(s, { action: storePath(s.store, '/settings/store'), form: shown, fields });
  settingsPage(s, { title: 'Store details', body }, status);
}

export async function saveStoreDetails(s: StorePage): Promise<void> {
  const currency = s.form.get('currency');
  const body = {
    name: s.form.get('name') ?? '',
    locale: (s.form.get('locale') ?? '').trim(),
    ...(currency === undefined ? {} : { currency: currency.trim().toUpperCase() }),
  };
  const input = parsedBody(UpdateStoreBody, body, s.form, FIELDS);
  if (input.form) return storeDetailsPage(s, input.form, 400);
  try {
    await updateStore(s.platform, s.viewer.merchant.merchantId, s.store.id, input.data);
  } catch (err) {
    return storeDetailsPage(s, refusedForm(s.form, err, FIELDS), 409);
  }
  s.seeOther(storePath(s.store, '/settings/store'), 'The store details are saved.');
}
