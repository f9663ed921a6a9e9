import {
  createCoupon,
  CreateCouponBody,
  deleteCoupon,
  getCoupon,
  listCoupons,
  ListCouponsQuery,
  updateCoupon,
  UpdateCouponBody,
  type CouponView,
} from '../../coupons/index.js';
import type { InputIssue } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, formWithIssues, select, type FormState } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { badge, confirmStep, emptyState, heading, link, table, when } from '../../http/ui/parts.js';
import { zodIssues } from '../../http/validate.js';
import { formatMoney } from '../../rendering/index.js';
import { refusedForm } from '../forms.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, storePath, type StorePage } from '../request.js';
import { amountText, checkbox, dayBound, dayOfBound, minorUnits, wholeNumber } from './inputs.js';

/**
 * `/admin/stores/<id>/discounts` (docs/admin.md, Discounts): the store's coupons a page at a time
 * over the API's cursors, each with its rule, usage and limits; create, edit (the active box
 * disables it) and delete after a confirm step, each through the coupons service of `/v1/coupons`.
 */

type CouponPage = StorePage<{ storeId: string; couponId: string }>;
const FIELDS = new Set(['code', 'type', 'value', 'minimum_subtotal', 'usage_limit', 'usage_limit_per_customer', 'starts_at', 'ends_at', 'active']);
const TYPES = [
  { value: 'percentage', label: 'Percentage off the subtotal' },
  { value: 'fixed_amount', label: 'Fixed amount off the subtotal' },
  { value: 'free_shipping', label: 'Free shipping' },
];

/** The sections' tabs: coupons and gift cards. */
export const discountTabs = (s: StorePage, current: 'coupons' | 'gift-cards') =>
  html`<p class="actions">${current === 'coupons' ? html`<strong>Coupons</strong>` : html`<a href="${storePath(s.store, '/discounts')}">Coupons</a>`}${
    current === 'gift-cards' ? html`<strong>Gift cards</strong>` : html`<a href="${storePath(s.store, '/discounts/gift-cards')}">Gift cards</a>`
  }</p>`;

/** What a coupon takes off, in words. */
function rule(c: CouponView): string {
  const off = c.type === 'percentage' ? `${c.value}% off` : c.type === 'fixed_amount' ? `${formatMoney(c.value ?? 0, c.currency)} off` : 'Free shipping';
  return c.minimum_subtotal ? `${off} orders of ${formatMoney(c.minimum_subtotal, c.currency)} or more` : off;
}

const usage = (c: CouponView) =>
  `${c.usage_count}${c.usage_limit === null ? '' : ` of ${c.usage_limit}`}${c.usage_limit_per_customer ? ` (${c.usage_limit_per_customer} per customer)` : ''}`;

export async function couponsPage(s: StorePage): Promise<void> {
  const query = parseQuery(s, ListCouponsQuery);
  const page = await listCoupons(s.platform, s.store.id, query);
  const path = storePath(s.store, '/discounts');
  const rows = page.items.map((c) => [
    link(`${path}/coupons/${c.id}`, c.code),
    rule(c),
    usage(c),
    c.active ? badge('active', 'ok') : badge('disabled'),
    c.starts_at || c.ends_at ? html`${c.starts_at ? html`from ${when(c.starts_at)}` : null}${c.ends_at ? html` until ${when(c.ends_at)}` : null}` : null,
  ]);
  const body = html`${heading('Discounts')}${discountTabs(s, 'coupons')}
    <p class="actions"><a class="button" href="${path}/coupons/new">Add coupon</a></p>
    ${table({
      label: 'Coupons',
      stack: true,
      headings: ['Code', 'Discount', 'Used', 'Status', 'Dates'],
      rows,
      empty: emptyState('No coupons yet. A coupon is a code shoppers type at checkout for a discount or free shipping.', {
        href: `${path}/coupons/new`,
        label: 'Add coupon',
      }),
    })}${pager({ path, params: { limit: s.ctx.query.limit ? query.limit : undefined }, nextCursor: page.nextCursor, ...pagePosition(s) })}`;
  s.render(storePage(s, 'discounts', { title: 'Discounts', body }));
}

/** A coupon as the form's values. */
const couponValues = (c: CouponView) =>
  new Map([
    ['code', c.code],
    ['type', c.type],
    ['value', c.type === 'fixed_amount' ? amountText(c.value, c.currency) : c.value === null ? '' : String(c.value)],
    ['minimum_subtotal', amountText(c.minimum_subtotal, c.currency)],
    ['usage_limit', c.usage_limit === null ? '' : String(c.usage_limit)],
    ['usage_limit_per_customer', c.usage_limit_per_customer === null ? '' : String(c.usage_limit_per_customer)],
    ['starts_at', dayOfBound(c.starts_at, false)],
    ['ends_at', dayOfBound(c.ends_at, true)],
    ['active', c.active ? 'on' : ''],
  ]);

/** The form as the API's body: the value a whole percent or an amount in the store's currency, days as UTC bounds; issues where the text was no number or day. */
function couponBody(s: StorePage, issues: InputIssue[]) {
  const type = s.form.get('type') ?? '';
  return {
    code: (s.form.get('code') ?? '').trim(),
    type,
    value: type === 'fixed_amount' ? minorUnits(s.form, 'value', s.store.currency, issues) : wholeNumber(s.form, 'value', issues),
    minimum_subtotal: minorUnits(s.form, 'minimum_subtotal', s.store.currency, issues),
    usage_limit: wholeNumber(s.form, 'usage_limit', issues),
    usage_limit_per_customer: wholeNumber(s.form, 'usage_limit_per_customer', issues),
    starts_at: dayBound(s.form, 'starts_at', false, issues),
    ends_at: dayBound(s.form, 'ends_at', true, issues),
    active: s.form.get('active') === 'on',
  };
}

function couponForm(s: StorePage, form: FormState, action: string, button: string): Markup {
  const currency = s.store.currency;
  return html`<form class="card" method="post" action="${action}" novalidate>
    ${csrfInput(s.viewer.csrf)}${errorSummary(form.problems)}
    ${field(form, 'code', 'Code', { required: true, hint: 'What shoppers type: 3 to 40 letters, digits, - and _ (case does not matter)', attrs: html`autocapitalize="characters" spellcheck="false"` })}
    <div class="grid">
      ${select(form, 'type', 'Discount', TYPES, { required: true })}
      ${field(form, 'value', 'Value', { hint: `A whole percent (1 to 100), or an amount in ${currency}; none for free shipping`, attrs: html`inputmode="decimal"` })}
      ${field(form, 'minimum_subtotal', `Minimum subtotal (${currency})`, { hint: 'Leave empty for none', attrs: html`inputmode="decimal"` })}
      ${field(form, 'usage_limit', 'Uses in all', { type: 'number', hint: 'Leave empty for no limit', attrs: html`min="1" step="1"` })}
      ${field(form, 'usage_limit_per_customer', 'Uses per customer', { type: 'number', hint: 'Leave empty for no limit', attrs: html`min="1" step="1"` })}
      ${field(form, 'starts_at', 'Starts (UTC day)', { type: 'date' })}${field(form, 'ends_at', 'Ends after (UTC day)', { type: 'date' })}
    </div>
    ${checkbox(form, 'active', 'Active: shoppers can use it')}
    <button class="button" type="submit">${button}</button>
  </form>`;
}

export function newCouponPage(s: StorePage, form: FormState = blankForm(new Map([['active', 'on']])), status = 200): void {
  const path = storePath(s.store, '/discounts');
  const body = html`<p><a href="${path}">« Discounts</a></p><div class="narrow">${heading('Add coupon')}${couponForm(s, form, `${path}/coupons/new`, 'Add coupon')}</div>`;
  s.render(storePage(s, 'discounts', { title: 'Add coupon', body }), status);
}

export async function createCouponAction(s: StorePage): Promise<void> {
  const issues: InputIssue[] = [];
  const parsed = CreateCouponBody.safeParse(couponBody(s, issues));
  if (!parsed.success) issues.push(...zodIssues(parsed.error));
  if (issues.length || !parsed.success) return newCouponPage(s, formWithIssues(s.form, issues, FIELDS), 400);
  try {
    const c = await createCoupon(s.platform, s.store, parsed.data);
    s.seeOther(storePath(s.store, `/discounts/coupons/${c.id}`), `Coupon ${c.code} is added.`);
  } catch (err) {
    newCouponPage(s, refusedForm(s.form, err, FIELDS, new Map([['coupon_code_taken', 'code']])), 409);
  }
}

export async function couponPage(s: CouponPage, form?: FormState, status = 200): Promise<void> {
  const c = await getCoupon(s.platform, s.store.id, s.params.couponId);
  const at = storePath(s.store, `/discounts/coupons/${c.id}`);
  const body = html`<p><a href="${storePath(s.store, '/discounts')}">« Discounts</a></p>
    <div class="narrow">
      ${heading(`Coupon ${c.code}`, `${rule(c)}. Used ${usage(c)}.`)}
      ${couponForm(s, form ?? blankForm(couponValues(c)), at, 'Save coupon')}
      <p><a class="button button--danger" href="${at}/delete">Delete coupon</a></p>
    </div>`;
  s.render(storePage(s, 'discounts', { title: `Coupon ${c.code}`, body }), status);
}

export async function updateCouponAction(s: CouponPage): Promise<void> {
  const issues: InputIssue[] = [];
  const parsed = UpdateCouponBody.safeParse(couponBody(s, issues));
  if (!parsed.success) issues.push(...zodIssues(parsed.error));
  if (issues.length || !parsed.success) return couponPage(s, formWithIssues(s.form, issues, FIELDS), 400);
  try {
    await updateCoupon(s.platform, s.store.id, s.params.couponId, parsed.data);
  } catch (err) {
    return couponPage(s, refusedForm(s.form, err, FIELDS, new Map([['coupon_code_taken', 'code']])), 409);
  }
  s.seeOther(storePath(s.store, `/discounts/coupons/${s.params.couponId}`), 'The coupon is saved.');
}

export async function confirmDeleteCoupon(s: CouponPage): Promise<void> {
  const c = await getCoupon(s.platform, s.store.id, s.params.couponId);
  const at = storePath(s.store, `/discounts/coupons/${c.id}`);
  const body = confirmStep({
    question: `Delete coupon ${c.code}?`,
    detail: `Shoppers can no longer use it; orders that used it keep their discount. To pause it instead, clear Active. This cannot be undone.`,
    action: `${at}/delete`,
    csrf: s.viewer.csrf,
    button: 'Delete the coupon',
    back: { href: at, label: 'Keep it' },
  });
  s.render(storePage(s, 'discounts', { title: `Delete coupon ${c.code}?`, body }));
}

export async function deleteCouponAction(s: CouponPage): Promise<void> {
  const c = await getCoupon(s.platform, s.store.id, s.params.couponId);
  await deleteCoupon(s.platform, s.store.id, c.id);
  s.seeOther(storePath(s.store, '/discounts'), `Coupon ${c.code} is deleted.`);
}
