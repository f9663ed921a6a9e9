import {
  collectionIdsHolding,
  getCollection,
  getProduct,
  listCollections,
  updateCollection,
  UpdateCollectionBody,
  type CollectionView,
  type ProductView,
} from '../../catalog/index.js';
import { html, type Markup } from '../../html.js';
import { csrfInput, hiddenInput } from '../../http/ui/forms.js';
import { refusedForm } from '../forms.js';
import { storePath, type StorePage } from '../request.js';

type ProductPage = StorePage<{ storeId: string; productId: string }>;

/** The collections a product page offers: the store's first this many (a store with more adds from the collection's page). */
export const PRODUCT_PAGE_COLLECTIONS = 250;

/**
 * A product's collections on its page (docs/admin.md, Products): the manual collections it is in,
 * each with Remove, and Add to a manual collection it is not in, each a form through the catalog
 * service of `PATCH /v1/products/collections/:id` as the collection's own page uses it. Automatic
 * collections choose their products by their rules, so they are only named.
 */
export function collectionsSection(s: ProductPage, p: ProductView, { all, holding }: ProductPageCollections): Markup {
  const manual = all.filter((c) => c.type === 'manual');
  const member = manual.filter((c) => holding.includes(c.id));
  const others = manual.filter((c) => !holding.includes(c.id));
  const automatic = all.filter((c) => c.type !== 'manual');
  const action = storePath(s.store, `/products/${p.id}/collections`);
  return html`<h2 id="collections">Collections</h2>
    <div class="card">
      ${
        member.length
          ? html`<ul style="list-style:none;margin:0 0 12px;padding:0;display:grid;gap:8px">
              ${member.map(
                (c) =>
                  html`<li class="actions">
                    <a href="${storePath(s.store, `/collections/${c.id}`)}">${c.title}</a>
                    <form method="post" action="${action}">
                      ${csrfInput(s.viewer.csrf)}${hiddenInput('remove', c.id)}<button class="button button--secondary" type="submit">Remove from ${c.title}</button>
                    </form>
                  </li>`,
              )}
            </ul>`
          : html`<p class="muted">In no manual collection.</p>`
      }
      ${
        others.length
          ? html`<form method="post" action="${action}" class="actions">
              ${csrfInput(s.viewer.csrf)}
              <label for="f-add-collection">Add to</label>
              <select id="f-add-collection" name="add" style="width:auto;max-width:100%">
                ${others.map((c) => html`<option value="${c.id}">${c.title}</option>`)}
              </select>
              <button class="button button--secondary" type="submit">Add</button>
            </form>`
          : manual.length
            ? null
            : html`<p class="muted"><a href="${storePath(s.store, '/collections')}">Make a collection</a> to group products in the shop.</p>`
      }
      ${automatic.length ? html`<p class="muted">Automatic collections (${automatic.map((c) => c.title).join(', ')}) choose their products by their rules.</p>` : null}
    </div>`;
}

/** Add the product to a manual collection, or remove it from one: the collection's product list through the catalog service; 303 back with what happened. */
export async function productCollectionsAction(s: ProductPage): Promise<void> {
  const p = await getProduct(s.platform, s.store.id, s.params.productId);
  const back = storePath(s.store, `/products/${p.id}`);
  const add = s.form.get('add');
  const target = add ?? s.form.get('remove') ?? '';
  // A collection of another store, or no collection: the catalog's 404 page, nothing changed.
  const c = await getCollection(s.platform, s.store.id, target);
  if (c.type !== 'manual') return s.seeOther(back, `${c.title} chooses its products by its rules.`);
  const ids = add ? [...new Set([...(c.product_ids ?? []), p.id])] : (c.product_ids ?? []).filter((id) => id !== p.id);
  // The catalog's own limit (a collection holds at most 5,000 products) said, not thrown.
  const body = UpdateCollectionBody.safeParse({ product_ids: ids });
  if (!body.success) return s.seeOther(back, `${c.title} cannot take more products: ${body.error.issues[0]?.message ?? 'too many'}.`);
  try {
    await updateCollection(s.platform, s.store.id, c.id, body.data);
  } catch (err) {
    const form = refusedForm(s.form, err, new Set());
    return s.seeOther(back, form.problems[0] ?? [...form.errors.values()][0] ?? 'The collection was not changed.');
  }
  s.seeOther(back, add ? `Added to ${c.title}.` : `Removed from ${c.title}.`);
}

type ProductPageCollections = { all: readonly Pick<CollectionView, 'id' | 'title' | 'type'>[]; holding: readonly string[] };

/** The store's collections for a product page, without their product lists (up to 5,000 ids each), and the ids of those holding the product. */
export async function collectionsForProductPage(s: StorePage, productId: string): Promise<ProductPageCollections> {
  const [page, holding] = await Promise.all([
    listCollections(s.platform, s.store.id, { limit: PRODUCT_PAGE_COLLECTIONS }, ['id', 'title', 'type']),
    collectionIdsHolding(s.platform, s.store.id, productId),
  ]);
  return { all: page.items, holding };
}
