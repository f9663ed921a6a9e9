import type { InputIssue } from '../../errors.js';
import { html } from '../../html.js';
import { blankForm, field, type FormState } from '../../http/ui/forms.js';
import { getShippingSettings, putShippingSettings, ShippingSettingsBody, MAX_SHIPPING_RATES } from '../../shipping/index.js';
import { amountText, minorUnits } from '../discounts/inputs.js';
import { refusedForm } from '../forms.js';
import { storePath, type StorePage } from '../request.js';
import { settingsForm, settingsPage } from './index.js';
import { editableRows, parsedRows, rowField, rowFieldNames, rowValues } from './rows.js';

/**
 * `/admin/stores/<id>/settings/shipping` (docs/admin.md, Settings): the store's shipping rate
 * table as the API stores it (`GET` and `PUT /v1/shipping`, the shipping service and its schema):
 * each row an option (its code and name) with its price to a country, one of its provinces, or
 * every other country (`*`), and the subtotals it is offered between. Saved as a whole.
 */

const TABLE = {
  key: 'rates',
  fields: new Map([
    ['code', 'code'],
    ['name', 'name'],
    ['price', 'price'],
    ['country_code', 'country'],
    ['province_code', 'province'],
    ['min_subtotal', 'min'],
    ['max_subtotal', 'max'],
  ]),
  max: MAX_SHIPPING_RATES,
};

export async function shippingPage(s: StorePage, form?: FormState, status = 200): Promise<void> {
  const currency = s.store.currency;
  const shown =
    form ??
    blankForm(
      rowValues(
        (await getShippingSettings(s.platform, s.store.id)).rates.map((r) => ({
          code: r.code,
          name: r.name,
          price: amountText(r.price, currency),
          country: r.country_code,
          province: r.province_code ?? '',
          min: amountText(r.min_subtotal, currency),
          max: amountText(r.max_subtotal, currency),
        })),
      ),
    );
  const rows = editableRows(shown, TABLE, {
    legend: (i) => shown.values.get(rowField(i, 'name')) || `Rate ${i + 1}`,
    add: 'Add a rate',
    row: (i) =>
      html`${field(shown, rowField(i, 'name'), 'Name')}${field(shown, rowField(i, 'code'), 'Code')}
      ${field(shown, rowField(i, 'price'), `Price (${currency})`, { attrs: html`inputmode="decimal"` })}${field(shown, rowField(i, 'country'), 'Country')}
      ${field(shown, rowField(i, 'province'), 'Province')}${field(shown, rowField(i, 'min'), `From subtotal (${currency})`, { attrs: html`inputmode="decimal"` })}
      ${field(shown, rowField(i, 'max'), `Up to subtotal (${currency})`, { attrs: html`inputmode="decimal"` })}`,
  });
  const how = html`<p class="muted" style="margin-top:0">
      Name: what checkout shows (Standard). Code: lowercase letters and digits with - or _ between (standard); rates of one code are one
      option. Country: a code such as US, or * for every country no rate names. Province (a code such as CA) and the subtotals are optional.
    </p>`;
  const body = settingsForm(s, { action: storePath(s.store, '/settings/shipping'), form: shown, fields: html`${how}${rows}`, button: 'Save rates' });
  const lead =
    'Checkout offers, for each code, the rate of the shopper’s province, else of their country, else the * rate when no rate names the country; within its subtotals.';
  settingsPage(s, { title: 'Shipping', lead, body, wide: true }, status);
}

export async function saveShipping(s: StorePage): Promise<void> {
  const currency = s.store.currency;
  const amount = (name: string, issues: InputIssue[]) => minorUnits(s.form, name, currency, issues);
  const input = parsedRows(
    ShippingSettingsBody,
    s.form,
    TABLE,
    (field, value, issues) => {
      if (value('price') === '') issues.push({ path: field('price'), message: 'is required' });
      return {
        code: value('code'),
        name: value('name'),
        price: amount(field('price'), issues) ?? 0,
        country_code: value('country') === '*' ? '*' : value('country').toUpperCase(),
        province_code: value('province').toUpperCase() || null,
        min_subtotal: amount(field('min'), issues),
        max_subtotal: amount(field('max'), issues),
      };
    },
    (rates) => ({ rates }),
  );
  if (input.form) return shippingPage(s, input.form, 400);
  try {
    await putShippingSettings(s.platform, s.store.id, input.data);
  } catch (err) {
    return shippingPage(s, refusedForm(s.form, err, rowFieldNames(s.form, TABLE)), 409);
  }
  const n = input.data.rates.length;
  s.seeOther(storePath(s.store, '/settings/shipping'), `The shipping rates are saved: ${n} ${n === 1 ? 'rate' : 'rates'}.`);
}
