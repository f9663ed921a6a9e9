import { createProduct, CreateProductBody, deleteProduct, getProduct, updateProduct, UpdateProductBody, type ProductView } from '../../catalog/index.js';
import { html } from '../../html.js';
import { blankForm, type FormState } from '../../http/ui/forms.js';
import { confirmStep, heading } from '../../http/ui/parts.js';
import { storePage } from '../layout.js';
import { storePath, type StorePage } from '../request.js';
import { parseProductForm, productForm, productValues } from './form.js';
import { priceRange } from './list.js';
import { statusBadge } from './status.js';
import { changeStock, stockSection } from './stock.js';
import { collectionsForProductPage, collectionsSection } from './collections.js';
import { levelsOfProducts, listLocations } from '../../inventory/index.js';
import { mediaByIds } from '../../media/index.js';
import { extensionCards } from '../apps/embed/extensions.js';
import { imagesSection, moveImage, removeImage, saveAltText, uploadImage, type ImageForm, type ImagePage } from './images.js';

/**
 * A product's page (`/admin/stores/<id>/products/<product_id>`) and New product: the product
 * form through the catalog service the REST API uses (`createProduct`, `updateProduct`: its
 * schema's rules, its sanitiser for the description), Archive and Delete after a confirm step.
 * A form refused is the page again with its errors at their fields and the input kept.
 */

export type ProductPage = StorePage<{ storeId: string; productId: string }>;

export function newProductPage(s: StorePage, form: FormState = blankForm(new Map([['variant_rows', '1']])), status = 200): void {
  const body = html`<p><a href="${storePath(s.store, '/products')}">« Products</a></p>
    ${heading('Add product')}${productForm({ action: storePath(s.store, '/products/new'), csrf: s.viewer.csrf, form, currency: s.store.currency, button: 'Save product' })}`;
  s.render(storePage(s, 'products', { title: 'Add product', body }), status);
}

export async function createProductAction(s: StorePage): Promise<void> {
  const parsed = parseProductForm(CreateProductBody, s.form, s.store.currency);
  if (!parsed.data) return newProductPage(s, parsed.form, 400);
  let made: ProductView;
  try {
    made = await createProduct(s.platform, s.store, parsed.data);
  } catch (err) {
    return newProductPage(s, parsed.refused(err), 409);
  }
  s.seeOther(storePath(s.store, `/products/${made.id}`), `Product “${made.title}” created.`);
}

export type ProductForms = { product?: FormState; stock?: FormState; image?: ImageForm };

export async function productPage(s: ProductPage, forms: ProductForms = {}, status = 200): Promise<void> {
  const p = await getProduct(s.platform, s.store.id, s.params.productId);
  const [locations, levels, media, collections] = await Promise.all([
    listLocations(s.platform, s.store.id, { limit: 100, active: true }),
    levelsOfProducts(s.platform, s.store.id, [p.id]),
    mediaByIds(s.platform, s.store.id, p.media_ids),
    collectionsForProductPage(s, p.id),
  ]);
  const apps = await extensionCards(s, 'admin.product.details');
  const at = storePath(s.store, `/products/${p.id}`);
  const body = html`<p><a href="${storePath(s.store, '/products')}">« Products</a></p>
    ${heading(p.title)}
    <p class="actions" style="margin-top:-8px">${statusBadge(p.status)}<span class="muted">${priceRange(p)} · /products/${p.handle}</span></p>
    ${productForm({ action: at, csrf: s.viewer.csrf, form: forms.product ?? blankForm(productValues(p)), currency: p.currency, button: 'Save' })}
    ${imagesSection(s, p, media, forms.image ?? null)}
    ${stockSection(s, p, locations.items, levels, forms.stock ?? blankForm())}
    ${collectionsSection(s, p, collections)}
    ${apps.markup}
    <h2>Archive or delete</h2>
    <div class="actions">
      ${p.status === 'archived' ? null : html`<a class="button button--secondary" href="${at}/archive">Archive</a>`}
      <a class="button button--danger" href="${at}/delete">Delete</a>
    </div>`;
  s.render(storePage(s, 'products', { title: p.title, body, scripts: apps.scripts }), status, apps.policy);
}

export async function updateProductAction(s: ProductPage): Promise<void> {
  const p = await getProduct(s.platform, s.store.id, s.params.productId);
  const parsed = parseProductForm(UpdateProductBody, s.form, p.currency);
  if (!parsed.data) return productPage(s, { product: parsed.form }, 400);
  try {
    await updateProduct(s.platform, s.store.id, p.id, parsed.data);
  } catch (err) {
    return productPage(s, { product: parsed.refused(err) }, 409);
  }
  s.seeOther(storePath(s.store, `/products/${p.id}`), 'Product saved.');
}

export async function stockAction(s: ProductPage): Promise<void> {
  const p = await getProduct(s.platform, s.store.id, s.params.productId);
  const changed = await changeStock(s, p);
  if ('form' in changed) return productPage(s, { stock: changed.form }, changed.status);
  s.seeOther(storePath(s.store, `/products/${p.id}#stock`), changed.done);
}

/** An image form's outcome: back to the product's images with a flash, or the page again with the form refused. */
const imageAction = (act: (s: ImagePage) => Promise<{ done: string } | { refused: ImageForm; status: number }>) => async (s: ImagePage) => {
  const outcome = await act(s);
  if ('refused' in outcome) return productPage(s, { image: outcome.refused }, outcome.status);
  s.seeOther(storePath(s.store, `/products/${s.params.productId}#images`), outcome.done);
};
export const uploadImageAction = imageAction(uploadImage);
export const altTextAction = imageAction(saveAltText);
export const moveImageAction = imageAction(moveImage);
export const removeImageAction = imageAction(removeImage);

const STEPS = {
  archive: { question: 'Archive', detail: 'It leaves the shop and its searches; its orders and stock stay. You can make it active again.', button: 'Archive' },
  delete: {
    question: 'Delete',
    detail: 'It is removed for good, with its variants, from the shop and its collections; its orders keep their lines. This cannot be undone.',
    button: 'Delete the product',
  },
} as const;

/** The confirm step of Archive or Delete (a GET of its address; its form posts the action). */
export async function confirmProductStep(s: ProductPage, step: keyof typeof STEPS): Promise<void> {
  const p = await getProduct(s.platform, s.store.id, s.params.productId);
  const at = storePath(s.store, `/products/${p.id}`);
  const o = STEPS[step];
  const body = confirmStep({
    question: `${o.question} “${p.title}”?`,
    detail: o.detail,
    action: `${at}/${step}`,
    csrf: s.viewer.csrf,
    button: o.button,
    back: { href: at, label: 'Keep it' },
  });
  s.render(storePage(s, 'products', { title: `${o.question} ${p.title}?`, body }));
}

export async function archiveProductAction(s: ProductPage): Promise<void> {
  const p = await updateProduct(s.platform, s.store.id, s.params.productId, { status: 'archived' });
  s.seeOther(storePath(s.store, `/products/${p.id}`), `“${p.title}” is archived.`);
}

export async function deleteProductAction(s: ProductPage): Promise<void> {
  const p = await getProduct(s.platform, s.store.id, s.params.productId);
  await deleteProduct(s.platform, s.store.id, p.id);
  s.seeOther(storePath(s.store, '/products'), `“${p.title}” is deleted.`);
}
