import { html } from '../html.js';
import { blankForm, errorSummary, field, parseForm, csrfInput, type FormState } from '../http/ui/forms.js';
import { heading } from '../http/ui/parts.js';
import { createStore, CreateStoreBody } from '../stores/index.js';
import { refusedForm } from './forms.js';
import { accountPage } from './layout.js';
import { storePath, type AdminPage } from './request.js';

/**
 * `/admin` and `/admin/stores/new` (docs/admin.md, Paths): where the admin starts. A merchant with
 * stores goes to their first store's Home; one without is asked to create one (name, subdomain,
 * currency), through the stores service the API's `POST /v1/stores` uses.
 */

const FIELDS = new Set(['name', 'subdomain', 'currency']);
const AT_FIELD = new Map([['subdomain_taken', 'subdomain']]);

/** `/admin`: the first store's Home, or Create your store. */
export function adminStart(p: AdminPage): void {
  const first = p.viewer.stores[0];
  if (first) return p.seeOther(storePath(first));
  newStorePage(p);
}

export function newStorePage(p: AdminPage, form: FormState = blankForm(new Map([['currency', 'USD']])), status = 200): void {
  const first = p.viewer.stores.length === 0;
  const body = html`<div class="narrow">
    ${heading(first ? 'Create your store' : 'Create a store', first ? 'Your shop, its products and orders live in a store. You can rename it later.' : undefined)}
    <form class="card" method="post" action="/admin/stores/new" novalidate>
      ${csrfInput(p.viewer.csrf)}${errorSummary(form.problems)}
      ${field(form, 'name', 'Store name', { required: true, autocomplete: 'organization' })}
      ${field(form, 'subdomain', 'Subdomain', { required: true, hint: 'Your shop’s address: lowercase letters, digits and hyphens.', attrs: html`autocapitalize="none" spellcheck="false"` })}
      ${field(form, 'currency', 'Currency', { required: true, hint: 'An ISO 4217 code such as USD, EUR or JPY: prices and orders are in it.', attrs: html`maxlength="3" autocapitalize="characters"` })}
      <button class="button" type="submit">Create store</button>
    </form>
  </div>`;
  p.render(accountPage(p, { title: first ? 'Create your store' : 'Create a store', body }), status);
}

export async function createStoreAction(p: AdminPage): Promise<void> {
  // A currency typed in lower case is still the code meant.
  const fields = new Map(p.form).set('currency', (p.form.get('currency') ?? '').trim().toUpperCase());
  const parsed = parseForm(CreateStoreBody, fields);
  if (parsed.form) return newStorePage(p, parsed.form, 400);
  try {
    const store = await createStore(p.platform, p.viewer.merchant.merchantId, parsed.data);
    p.seeOther(storePath(store), `${store.name} is ready. Add products, then open your shop.`);
  } catch (err) {
    newStorePage(p, refusedForm(fields, err, FIELDS, AT_FIELD), 409);
  }
}
