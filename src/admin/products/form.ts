import { CreateProductBody, UpdateProductBody, type ProductView } from '../../catalog/index.js';
import { PlatformError, type InputIssue } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import { csrfInput, errorSummary, field, formWithIssues, hiddenInput, select, textarea, type FormState } from '../../http/ui/forms.js';
import { zodIssues } from '../../http/validate.js';
import { currencyDigits } from '../../money.js';
import { refusedForm } from '../forms.js';
import { amountOf } from '../orders/actions.js';

/**
 * The product form (docs/admin.md, Products), new and edit alike: its fields are the API's body
 * (`CreateProductBody`, `UpdateProductBody`), checked by that schema, so the rules are the
 * catalog's. Options are lines of `Name: value, value`; each variant is a row of fields
 * `v<i>_…` (its id kept hidden, so an edit keeps its stock and orders), one blank row to add a
 * variant, a Remove box to drop one. An issue at `variants.<n>.price` is shown at that row's field.
 */

const minor = (amount: number, digits: number) => (amount / 10 ** digits).toFixed(digits);

/** A product as the form's values (what an edit starts from). */
export function productValues(p: ProductView): Map<string, string> {
  const digits = currencyDigits(p.currency);
  const values = new Map<string, string>([
    ['title', p.title],
    ['description_html', p.description_html],
    ['status', p.status],
    ['vendor', p.vendor ?? ''],
    ['product_type', p.product_type ?? ''],
    ['tags', p.tags.join(', ')],
    ['options', p.options.map((o) => `${o.name}: ${o.values.join(', ')}`).join('\n')],
    ['variant_rows', String(p.variants.length + 1)],
  ]);
  p.variants.forEach((v, i) => {
    values.set(`v${i}_id`, v.id);
    values.set(`v${i}_options`, v.option_values.join(', '));
    values.set(`v${i}_price`, minor(v.price, digits));
    values.set(`v${i}_compare_at`, v.compare_at_price === null ? '' : minor(v.compare_at_price, digits));
    values.set(`v${i}_sku`, v.sku ?? '');
    if (v.inventory_tracked) values.set(`v${i}_tracked`, 'on');
    values.set(`v${i}_policy`, v.inventory_policy);
  });
  return values;
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** The form's rows count, bounded by the API's 100 variants (and one blank row). */
const rowsOf = (form: ReadonlyMap<string, string>) => Math.min(Math.max(Number(form.get('variant_rows')) || 1, 1), 101);

/** A variant's body keys as its row's field names. */
const ROW_FIELDS = new Map([
  ['price', 'price'],
  ['compare_at_price', 'compare_at'],
  ['sku', 'sku'],
  ['option_values', 'options'],
]);

/** The form's fields as the API's body; amounts in the store's currency's minor units; issues of what the form itself cannot take. */
function bodyOf(form: ReadonlyMap<string, string>, currency: string, issues: InputIssue[]) {
  const money = (name: string) => {
    const found: InputIssue[] = [];
    const amount = amountOf(form.get(name) ?? '', currency, found);
    issues.push(...found.map((i) => ({ ...i, path: name })));
    return amount;
  };
  const rows: number[] = [];
  const variants = [];
  for (let i = 0; i < rowsOf(form); i++) {
    const blank = !form.get(`v${i}_id`) && !['options', 'price', 'compare_at', 'sku'].some((k) => form.get(`v${i}_${k}`)?.trim());
    if (blank || form.get(`v${i}_remove`) === 'on') continue;
    rows.push(i);
    const compare = money(`v${i}_compare_at`);
    variants.push({
      ...(form.get(`v${i}_id`) ? { id: form.get(`v${i}_id`) } : {}),
      option_values: list(form.get(`v${i}_options`)),
      sku: form.get(`v${i}_sku`)?.trim() || null,
      price: money(`v${i}_price`) ?? (form.get(`v${i}_price`)?.trim() ? 0 : undefined),
      compare_at_price: compare ?? null,
      inventory_tracked: form.get(`v${i}_tracked`) === 'on',
      inventory_policy: form.get(`v${i}_policy`) === 'continue' ? 'continue' : 'deny',
    });
  }
  const options = (form.get('options') ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line, n) => {
      const at = line.indexOf(':');
      if (at < 0) issues.push({ path: 'options', message: `line ${n + 1} must be a name, a colon and values: Size: S, M, L` });
      return { name: line.slice(0, Math.max(at, 0)).trim(), values: list(line.slice(at + 1)) };
    });
  const body = {
    title: form.get('title') ?? '',
    description_html: form.get('description_html') ?? '',
    status: form.get('status') ?? 'draft',
    vendor: form.get('vendor')?.trim() || null,
    product_type: form.get('product_type')?.trim() || null,
    tags: list(form.get('tags')),
    options,
    variants,
  };
  /** A schema issue's field: `variants.<n>.<key>` is that row's; `variants` the first row's price. */
  const fieldOf = (path: string) => {
    const m = /^variants\.(\d+)\.(\w+)/.exec(path);
    if (m) return `v${rows[Number(m[1])] ?? 0}_${ROW_FIELDS.get(m[2]!) ?? 'price'}`;
    if (path === 'variants') return 'v0_price';
    return path.split('.')[0]!;
  };
  return { body, fieldOf };
}

/** The form parsed by the API's schema: the body, or the form again with its issues at their fields. */
export function parseProductForm<S extends typeof CreateProductBody | typeof UpdateProductBody>(
  schema: S,
  form: ReadonlyMap<string, string>,
  currency: string,
) {
  const issues: InputIssue[] = [];
  const { body, fieldOf } = bodyOf(form, currency, issues);
  const parsed = schema.safeParse(body);
  if (!parsed.success) issues.push(...zodIssues(parsed.error).map((i) => ({ ...i, path: fieldOf(i.path) })));
  if (issues.length || !parsed.success) return { form: formWithIssues(form, issues, fieldNames(form)) };
  return { data: parsed.data as S['_output'], refused: (err: unknown) => refusedProductForm(form, err, fieldOf) };
}

/** The catalog's refusal of the body as the form again: its input issues (`variants.1.option_values`) at their rows' fields. */
function refusedProductForm(form: ReadonlyMap<string, string>, err: unknown, fieldOf: (path: string) => string): FormState {
  if (err instanceof PlatformError && err.extra.issues?.length)
    return formWithIssues(
      form,
      err.extra.issues.map((i) => ({ ...i, path: fieldOf(i.path) })),
      fieldNames(form),
    );
  return refusedForm(form, err, fieldNames(form));
}

/** The names an issue may sit at: the form's, and every row's. */
function fieldNames(form: ReadonlyMap<string, string>) {
  const names = new Set(['title', 'description_html', 'status', 'vendor', 'product_type', 'tags', 'options']);
  for (let i = 0; i < rowsOf(form); i++) for (const k of ['options', 'price', 'compare_at', 'sku']) names.add(`v${i}_${k}`);
  return names;
}

const STATUSES = ['draft', 'active', 'archived'].map((v) => ({ value: v, label: v }));

function variantRow(form: FormState, i: number, currency: string, existing: boolean): Markup {
  const checked = (name: string) => (form.values.get(name) === 'on' ? html` checked` : null);
  return html`<fieldset class="card" style="margin:0 0 12px">
    <legend>${existing ? `Variant ${i + 1}` : 'Add a variant'}</legend>
    ${form.values.get(`v${i}_id`) ? hiddenInput(`v${i}_id`, form.values.get(`v${i}_id`)!) : null}
    <div class="grid">
      ${field(form, `v${i}_options`, 'Option values', { hint: 'In the options’ order, e.g. S, Blue' })}
      ${field(form, `v${i}_price`, `Price (${currency})`, { attrs: html`inputmode="decimal"` })}
      ${field(form, `v${i}_compare_at`, `Compare-at price (${currency})`, { attrs: html`inputmode="decimal"` })}
      ${field(form, `v${i}_sku`, 'SKU')}
      ${select(
        form,
        `v${i}_policy`,
        'When out of stock',
        [
          { value: 'deny', label: 'Stop selling' },
          { value: 'continue', label: 'Keep selling' },
        ],
        { selected: 'deny' },
      )}
    </div>
    <label><input type="checkbox" name="v${String(i)}_tracked" value="on"${existing || form.values.has('csrf_token') ? checked(`v${i}_tracked`) : html` checked`}> Track stock</label>
    ${existing ? html` <label style="margin-left:16px"><input type="checkbox" name="v${String(i)}_remove" value="on"${checked(`v${i}_remove`)}> Remove</label>` : null}
  </fieldset>`;
}

/** The product form: to `action`, with the session's CSRF token, `button` its submit. */
export function productForm(o: { action: string; csrf: string | null; form: FormState; currency: string; button: string }): Markup {
  const rows = rowsOf(o.form.values);
  const existing = (i: number) => i < rows - 1;
  return html`<form method="post" action="${o.action}" novalidate>
    ${csrfInput(o.csrf)}${hiddenInput('variant_rows', String(rows))}${errorSummary(o.form.problems)}
    <div class="card">
      ${field(o.form, 'title', 'Title', { required: true })}
      ${textarea(o.form, 'description_html', 'Description', { rows: 6, hint: 'HTML: headings, paragraphs, lists, links, emphasis; anything else is removed' })}
      <div class="grid">
        ${select(o.form, 'status', 'Status', STATUSES, { selected: 'draft' })}${field(o.form, 'vendor', 'Vendor')}${field(o.form, 'product_type', 'Type')}
      </div>
      ${field(o.form, 'tags', 'Tags', { hint: 'Separated by commas' })}
      ${textarea(o.form, 'options', 'Options', { rows: 3, hint: 'Up to 3, one a line: Size: S, M, L' })}
    </div>
    <h2>Variants</h2>
    ${Array.from({ length: rows }, (_, i) => variantRow(o.form, i, o.currency, existing(i)))}
    <button class="button" type="submit">${o.button}</button>
  </form>`;
}
