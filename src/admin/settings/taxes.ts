import type { InputIssue } from '../../errors.js';
import { html } from '../../html.js';
import { blankForm, field, type FormState } from '../../http/ui/forms.js';
import { getTaxSettings, MAX_TAX_RATES, putTaxSettings, TaxSettingsBody } from '../../taxes/index.js';
import { checkbox } from '../discounts/inputs.js';
import { refusedForm } from '../forms.js';
import { storePath, type StorePage } from '../request.js';
import { settingsForm, settingsPage } from './index.js';
import { editableRows, parsedRows, rowField, rowFieldNames, rowValues } from './rows.js';

/**
 * `/admin/stores/<id>/settings/taxes` (docs/admin.md, Settings): the store's tax table as the API
 * stores it (`GET` and `PUT /v1/taxes`, the taxes service and its schema): a rate per country or
 * province, as a percent here and basis points there (20 % is 2000), and whether shipping is
 * taxed. Tax is added to prices (the API has no tax-inclusive prices). Saved as a whole.
 */

const TABLE = {
  key: 'rates',
  fields: new Map([
    ['country_code', 'country'],
    ['province_code', 'province'],
    ['name', 'name'],
    ['rate_bps', 'rate'],
  ]),
  max: MAX_TAX_RATES,
};

/** Basis points as the percent a form shows (2000 → `20`, 825 → `8.25`). */
const percentText = (bps: number) => String(bps / 100);

/** A percent typed (`8.25`) as basis points (825); at most two decimals, 0 to 100. */
function basisPoints(text: string, path: string, issues: InputIssue[]): number {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(text);
  const bps = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : NaN;
  if (!(bps <= 10_000)) issues.push({ path, message: 'must be a percent from 0 to 100, with at most 2 decimals' });
  return bps <= 10_000 ? bps : 0;
}

export async function taxesPage(s: StorePage, form?: FormState, status = 200): Promise<void> {
  let shown = form;
  if (!shown) {
    const taxes = await getTaxSettings(s.platform, s.store.id);
    const values = rowValues(
      taxes.rates.map((r) => ({ country: r.country_code, province: r.province_code ?? '', name: r.name, rate: percentText(r.rate_bps) })),
    );
    if (taxes.shipping_taxable) values.set('shipping_taxable', 'on');
    shown = blankForm(values);
  }
  const f = shown;
  const rows = editableRows(f, TABLE, {
    legend: (i) => f.values.get(rowField(i, 'name')) || `Rate ${i + 1}`,
    add: 'Add a rate',
    row: (i) =>
      html`${field(f, rowField(i, 'country'), 'Country')}${field(f, rowField(i, 'province'), 'Province')}${field(f, rowField(i, 'name'), 'Name')}
      ${field(f, rowField(i, 'rate'), 'Rate (%)', { attrs: html`inputmode="decimal"` })}`,
  });
  const how = html`<p class="muted" style="margin-top:0">Country: a code such as DE. Province (optional): a code such as BY. Name: what an order shows (VAT).</p>`;
  const fields = html`${checkbox(f, 'shipping_taxable', 'Charge tax on shipping')}${how}${rows}`;
  const body = settingsForm(s, { action: storePath(s.store, '/settings/taxes'), form: f, fields, button: 'Save taxes' });
  const lead = 'An order is taxed at the rate of its address’s province, else of its country, else not at all. Tax is added to prices.';
  settingsPage(s, { title: 'Taxes', lead, body, wide: true }, status);
}

export async function saveTaxes(s: StorePage): Promise<void> {
  const input = parsedRows(
    TaxSettingsBody,
    s.form,
    TABLE,
    (field, value, issues) => ({
      country_code: value('country').toUpperCase(),
      province_code: value('province').toUpperCase() || null,
      name: value('name'),
      rate_bps: basisPoints(value('rate'), field('rate'), issues),
    }),
    (rates) => ({ shipping_taxable: s.form.get('shipping_taxable') === 'on', rates }),
  );
  if (input.form) return taxesPage(s, input.form, 400);
  try {
    await putTaxSettings(s.platform, s.store.id, input.data);
  } catch (err) {
    return taxesPage(s, refusedForm(s.form, err, rowFieldNames(s.form, TABLE)), 409);
  }
  const n = input.data.rates.length;
  s.seeOther(storePath(s.store, '/settings/taxes'), `The taxes are saved: ${n} ${n === 1 ? 'rate' : 'rates'}.`);
}
