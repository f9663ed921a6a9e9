import type { InputIssue } from '../../errors.js';
import { html } from '../../html.js';
import type { FormState } from '../../http/ui/forms.js';
import { currencyDigits } from '../../money.js';

/**
 * What the discount forms' fields hold, as the API's bodies take it (docs/admin.md, Discounts): an
 * amount typed in the store's currency (`12.50`) as minor units, a whole number, a UTC day; each
 * problem an issue at its field. Blank is null (no limit, no date).
 */

/** An amount typed in `currency` (`12.5` USD) as minor units (1250), null when blank. */
export function minorUnits(form: ReadonlyMap<string, string>, name: string, currency: string, issues: InputIssue[]): number | null {
  const text = (form.get(name) ?? '').trim();
  if (text === '') return null;
  const digits = currencyDigits(currency);
  const match = /^(\d{1,12})(?:[.,](\d+))?$/.exec(text);
  if (!match || (match[2] ?? '').length > digits) {
    issues.push({ path: name, message: digits ? `must be an amount such as 12.50 (at most ${digits} decimals)` : 'must be a whole amount such as 1200' });
    return null;
  }
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || 0);
}

/** Minor units as the text a form shows (1250 USD → `12.50`). */
export const amountText = (minor: number | null, currency: string) =>
  minor === null ? '' : (minor / 10 ** currencyDigits(currency)).toFixed(currencyDigits(currency));

/** A whole number typed, null when blank. */
export function wholeNumber(form: ReadonlyMap<string, string>, name: string, issues: InputIssue[]): number | null {
  const text = (form.get(name) ?? '').trim();
  if (text === '') return null;
  if (/^\d{1,10}$/.test(text)) return Number(text);
  issues.push({ path: name, message: 'must be a whole number' });
  return null;
}

/** A UTC day typed (`2026-12-01`) as its first moment, or (`end`) the first moment of the day after, as ISO text; null when blank. */
export function dayBound(form: ReadonlyMap<string, string>, name: string, end: boolean, issues: InputIssue[]): string | null {
  const text = (form.get(name) ?? '').trim();
  if (text === '') return null;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00.000Z`) : null;
  if (!day || Number.isNaN(day.getTime())) {
    issues.push({ path: name, message: 'must be a date as YYYY-MM-DD' });
    return null;
  }
  return new Date(day.getTime() + (end ? 86_400_000 : 0)).toISOString();
}

/** The UTC day a bound shows as in a form: a start's own day, an end's last day (the day before its moment). */
export const dayOfBound = (iso: string | null, end: boolean) => (iso ? new Date(Date.parse(iso) - (end ? 1 : 0)).toISOString().slice(0, 10) : '');

/** A checkbox, checked when its value was `on`. */
export const checkbox = (form: FormState, name: string, label: string) =>
  html`<div class="field"><label><input type="checkbox" name="${name}" value="on"${form.values.get(name) === 'on' ? html` checked` : null}> ${label}</label>${
    form.errors.get(name) ? html`<span class="field__error">${form.errors.get(name)}</span>` : null
  }</div>`;
