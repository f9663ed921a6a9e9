import type { ProductView } from '../../catalog/index.js';
import { html, type Markup } from '../../html.js';
import { csrfInput, errorSummary, field, select, type FormState } from '../../http/ui/forms.js';
import { table } from '../../http/ui/parts.js';
import { adjustInventory, AdjustLevelBody, setLevel, SetLevelBody, type LevelView, type LocationView } from '../../inventory/index.js';
import { refusedForm } from '../forms.js';
import { storePath, type StorePage } from '../request.js';
type ProductPage = StorePage<{ storeId: string; productId: string }>;

/**
 * A product's stock per location (docs/admin.md, Products): each tracked variant's units for sale
 * and held for orders at each location, and a form that sets them (a count) or adjusts them by a
 * number (received, damaged), through the inventory service the REST API uses, with its guard
 * (no adjusting below zero for a variant that stops selling when out of stock).
 */

/** The stock section: a table per tracked variant, one form to set or adjust. `form` is a refused one, shown again. */
export function stockSection(s: ProductPage, p: ProductView, locations: readonly LocationView[], levels: readonly LevelView[], form: FormState): Markup {
  const tracked = p.variants.filter((v) => v.inventory_tracked);
  if (!tracked.length) return html`<h2 id="stock">Stock</h2><p class="muted">No variant tracks its stock.</p>`;
  if (!locations.length)
    return html`<h2 id="stock">Stock</h2><p class="muted">Stock is kept per location: <a href="${storePath(s.store, '/settings/locations')}">add a location</a> first.</p>`;
  const level = (variant: string, location: string) => levels.find((l) => l.variant_id === variant && l.location_id === location);
  const name = (v: ProductView['variants'][number]) => `${v.title}${v.sku ? ` (${v.sku})` : ''}`;
  return html`<h2 id="stock">Stock</h2>
    ${table({
      label: 'Stock per location',
      headings: ['Variant', ...locations.map((l) => l.name)],
      rows: tracked.map((v) => [name(v), ...locations.map((l) => stockCell(level(v.id, l.id)))]),
      empty: '',
    })}
    <form class="card" method="post" action="${storePath(s.store, `/products/${p.id}/stock`)}" novalidate>
      ${csrfInput(s.viewer.csrf)}${errorSummary(form.problems)}
      <div class="grid">
        ${select(
          form,
          'variant_id',
          'Variant',
          tracked.map((v) => ({ value: v.id, label: name(v) })),
        )}
        ${select(
          form,
          'location_id',
          'Location',
          locations.map((l) => ({ value: l.id, label: l.name })),
        )}
        ${select(form, 'mode', 'Change', [
          { value: 'set', label: 'Set units for sale to' },
          { value: 'adjust', label: 'Adjust by (+/−)' },
        ])}
        ${field(form, 'quantity', 'Units', { type: 'number', attrs: html`step="1" inputmode="numeric"` })}
      </div>
      <button class="button" type="submit">Update stock</button>
    </form>`;
}

const stockCell = (l: LevelView | undefined) => (l ? `${l.available} for sale${l.committed ? `, ${l.committed} held` : ''}` : null);

/** The stock form's change, through `setLevel` or `adjustInventory`; the form again (400/409) when refused. */
export async function changeStock(s: ProductPage, p: ProductView): Promise<{ done: string } | { form: FormState; status: number }> {
  const text = (s.form.get('quantity') ?? '').trim();
  const quantity = /^[-+]?\d{1,9}$/.test(text) ? Number(text) : NaN;
  const target = { variant_id: s.form.get('variant_id') ?? '', location_id: s.form.get('location_id') ?? '' };
  const adjusting = s.form.get('mode') === 'adjust';
  const parsed = adjusting
    ? AdjustLevelBody.safeParse({ ...target, delta: quantity, reason: quantity > 0 ? 'received' : 'correction' })
    : SetLevelBody.safeParse({ ...target, available: quantity });
  // The variant must be this product's (the service checks only that it is the store's).
  if (!p.variants.some((v) => v.id === target.variant_id))
    return { form: { values: s.form, errors: new Map([['variant_id', 'is not a variant of this product']]), problems: [] }, status: 400 };
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = ['delta', 'available'].includes(String(issue.path[0])) ? 'quantity' : String(issue.path[0]);
    return { form: { values: s.form, errors: new Map([[at, Number.isNaN(quantity) ? 'must be a whole number' : issue.message]]), problems: [] }, status: 400 };
  }
  try {
    const level = 'delta' in parsed.data ? await adjustInventory(s.platform, s.store.id, parsed.data) : await setLevel(s.platform, s.store.id, parsed.data);
    return { done: `Stock updated: ${level.available} for sale.` };
  } catch (err) {
    return { form: refusedForm(s.form, err, new Set(['quantity'])), status: 409 };
  }
}
