import {
  CreateCollectionBody,
  UpdateCollectionBody,
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  listProducts,
  productsByIds,
  updateCollection,
  type CollectionView,
} from '../../catalog/index.js';
import { html } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, formWithIssues, hiddenInput, select, textarea, type FormState } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { confirmStep, emptyState, heading, link, table } from '../../http/ui/parts.js';
import { zodIssues } from '../../http/validate.js';
import { PageQuery } from '../../pagination.js';
import { refusedForm } from '../forms.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, storePath, type StorePage } from '../request.js';

/**
 * The admin's Collections (docs/admin.md, Collections): the list over the API's cursors, a new
 * manual collection, and a collection's page (title and description; a manual one's products
 * added and removed) through the catalog service the REST API uses, and Delete after a confirm
 * step. A rule collection's products follow its rules, which the page shows.
 */

export type CollectionPage = StorePage<{ storeId: string; collectionId: string }>;
const FIELDS = new Set(['title', 'description_html']);
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

const detailsForm = (s: StorePage, action: string, form: FormState, button: string) =>
  html`<form class="card" method="post" action="${action}" novalidate>
    ${csrfInput(s.viewer.csrf)}${errorSummary(form.problems)}
    ${field(form, 'title', 'Title', { required: true })}
    ${textarea(form, 'description_html', 'Description', { rows: 4, hint: 'HTML: anything unsafe is removed' })}
    <button class="button" type="submit">${button}</button>
  </form>`;

export async function collectionsPage(s: StorePage, form: FormState = blankForm(), status = 200): Promise<void> {
  const query = parseQuery(s, PageQuery.strict());
  const page = await listCollections(s.platform, s.store.id, query);
  const path = storePath(s.store, '/collections');
  const rows = page.items.map((c) => [
    link(`${path}/${c.id}`, c.title),
    c.type,
    c.type === 'manual' ? count(c.product_ids?.length ?? 0, 'product') : count(c.rules?.conditions.length ?? 0, 'rule'),
  ]);
  const body = html`<p><a href="${storePath(s.store, '/products')}">« Products</a></p>
    ${heading('Collections', 'Groups of products for the shop’s navigation and pages.')}
    ${table({ label: 'Collections', headings: ['Title', 'Kind', 'Products'], rows, empty: emptyState('No collections yet. Create one below, then add products to it.') })}
    ${pager({ path, params: { limit: s.ctx.query.limit ? query.limit : undefined }, nextCursor: page.nextCursor, ...pagePosition(s) })}
    <h2>New collection</h2>
    ${detailsForm(s, path, form, 'Create collection')}`;
  s.render(storePage(s, 'products', { title: 'Collections', body }), status);
}

const input = (s: StorePage) => ({ title: (s.form.get('title') ?? '').trim(), description_html: s.form.get('description_html') ?? '' });

export async function createCollectionAction(s: StorePage): Promise<void> {
  const parsed = CreateCollectionBody.safeParse({ type: 'manual', ...input(s) });
  if (!parsed.success) return collectionsPage(s, formWithIssues(s.form, zodIssues(parsed.error), FIELDS), 400);
  let made: CollectionView;
  try {
    made = await createCollection(s.platform, s.store.id, parsed.data);
  } catch (err) {
    return collectionsPage(s, refusedForm(s.form, err, FIELDS), 409);
  }
  s.seeOther(storePath(s.store, `/collections/${made.id}`), `Collection “${made.title}” created.`);
}

export async function collectionPage(s: CollectionPage, form?: FormState, status = 200): Promise<void> {
  const c = await getCollection(s.platform, s.store.id, s.params.collectionId);
  const at = storePath(s.store, `/collections/${c.id}`);
  const members = c.type === 'manual' ? await productsByIds(s.platform, s.store.id, c.product_ids ?? []) : new Map();
  const candidates =
    c.type === 'manual' ? (await listProducts(s.platform, s.store.id, { sort: 'title', limit: 100 })).items.filter((p) => !members.has(p.id)) : [];
  const products =
    c.type === 'manual'
      ? html`${table({
          label: 'Products in the collection',
          headings: ['Product', ''],
          rows: (c.product_ids ?? []).flatMap((id) => {
            const p = members.get(id);
            return p
              ? [
                  [
                    link(storePath(s.store, `/products/${id}`), p.title),
                    html`<form method="post" action="${at}/products">${csrfInput(s.viewer.csrf)}${hiddenInput('remove', id)}<button class="button button--secondary" type="submit">Remove</button></form>`,
                  ],
                ]
              : [];
          }),
          empty: 'No products in it yet.',
        })}
        ${
          candidates.length
            ? html`<form class="card" method="post" action="${at}/products">
                ${csrfInput(s.viewer.csrf)}${select(
                  blankForm(),
                  'add',
                  'Add a product',
                  candidates.map((p) => ({ value: p.id, label: p.title })),
                )}
                <button class="button" type="submit">Add</button>
              </form>`
            : null
        }`
      : html`<p class="card">Products that match ${c.rules?.match === 'any' ? 'any' : 'all'} of its rules: ${(c.rules?.conditions ?? [])
          .map((r) => `${r.field} ${r.relation.replace('_', ' ')} ${String(r.value)}`)
          .join('; ')}.</p>`;
  const body = html`<p><a href="${storePath(s.store, '/collections')}">« Collections</a></p>
    ${heading(c.title, `${c.type === 'manual' ? 'Manual' : 'Rule'} collection · /collections/${c.handle}`)}
    ${detailsForm(
      s,
      at,
      form ??
        blankForm(
          new Map([
            ['title', c.title],
            ['description_html', c.description_html],
          ]),
        ),
      'Save',
    )}
    <h2>Products</h2>
    ${products}
    <h2>Delete</h2>
    <p><a class="button button--danger" href="${at}/delete">Delete collection</a></p>`;
  s.render(storePage(s, 'products', { title: c.title, body }), status);
}

export async function updateCollectionAction(s: CollectionPage): Promise<void> {
  const c = await getCollection(s.platform, s.store.id, s.params.collectionId);
  const parsed = UpdateCollectionBody.safeParse(input(s));
  if (!parsed.success) return collectionPage(s, formWithIssues(s.form, zodIssues(parsed.error), FIELDS), 400);
  try {
    await updateCollection(s.platform, s.store.id, c.id, parsed.data);
  } catch (err) {
    return collectionPage(s, refusedForm(s.form, err, FIELDS), 409);
  }
  s.seeOther(storePath(s.store, `/collections/${c.id}`), 'Collection saved.');
}

/** Add or remove one product of a manual collection: its product ids as the API's update body, through the same service. */
export async function collectionProductsAction(s: CollectionPage): Promise<void> {
  const c = await getCollection(s.platform, s.store.id, s.params.collectionId);
  const at = storePath(s.store, `/collections/${c.id}`);
  const add = s.form.get('add');
  const remove = s.form.get('remove');
  const ids = (c.product_ids ?? []).filter((id) => id !== remove).concat(add && !c.product_ids?.includes(add) ? [add] : []);
  const parsed = UpdateCollectionBody.safeParse({ product_ids: ids });
  if (!parsed.success) return s.seeOther(at, 'That is not a product of this store.');
  try {
    await updateCollection(s.platform, s.store.id, c.id, parsed.data);
  } catch (err) {
    const form = refusedForm(s.form, err, new Set());
    return s.seeOther(at, form.problems[0] ?? [...form.errors.values()][0]);
  }
  s.seeOther(at, add ? 'Product added.' : 'Product removed.');
}

/** Delete's confirm step (a GET of its address; its form posts the deletion). */
export async function confirmDeleteCollection(s: CollectionPage): Promise<void> {
  const c = await getCollection(s.platform, s.store.id, s.params.collectionId);
  const at = storePath(s.store, `/collections/${c.id}`);
  const body = confirmStep({
    question: `Delete “${c.title}”?`,
    detail: 'The collection leaves the shop and its page; its products stay, in the shop and in any other collection. This cannot be undone.',
    action: `${at}/delete`,
    csrf: s.viewer.csrf,
    button: 'Delete the collection',
    back: { href: at, label: 'Keep it' },
  });
  s.render(storePage(s, 'products', { title: `Delete ${c.title}?`, body }));
}

export async function deleteCollectionAction(s: CollectionPage): Promise<void> {
  const c = await getCollection(s.platform, s.store.id, s.params.collectionId);
  await deleteCollection(s.platform, s.store.id, c.id);
  s.seeOther(storePath(s.store, '/collections'), `Collection “${c.title}” deleted.`);
}
