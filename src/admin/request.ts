import type { z } from 'zod';
import { merchantEmail } from '../auth/index.js';
import { notFound } from '../errors.js';
import { signedInMerchant, type SignedIn } from '../http/page-access.js';
import type { Page, PageAccess } from '../http/pages.js';
import { parseListQuery, trailOf } from '../http/ui/pager.js';
import type { OnceScope } from '../http/ui/once.js';
import { findOwnedStore, listStoresOwnedBy, type StoreView } from '../stores/index.js';

/**
 * One admin request (docs/admin.md): a page of the admin's `pages()` list, whose viewer is a
 * merchant signed in in a browser (the `emporium_session` cookie only; an `Authorization` header
 * is refused), with the email the top bar shows and the stores the switcher lists.
 */
export type AdminViewer = SignedIn & { email: string; stores: readonly StoreView[] };
export type AdminPage<P = unknown> = Page<AdminViewer, P>;
/** A store-scoped admin page: the request, and the store of its path, the viewer's own. */
export type StorePage<P = unknown> = AdminPage<P> & { store: StoreView };

const asMerchant = signedInMerchant('/admin');
/** Who may use the admin: a merchant signed in in a browser, with their email and stores (one indexed read each). */
export const adminAccess: PageAccess<AdminViewer> = async (platform, ctx) => {
  const admitted = await asMerchant(platform, ctx);
  if ('redirect' in admitted) return admitted;
  const id = admitted.viewer.merchant.merchantId;
  const [email, stores] = await Promise.all([merchantEmail(platform, id), listStoresOwnedBy(platform, id)]);
  return { viewer: { ...admitted.viewer, email: email ?? '', stores } };
};

/**
 * The store a path names, when the signed-in merchant owns it; otherwise (another merchant's
 * store, no such store, a malformed id) the admin's 404 page, the same for each so a page never
 * tells whether another merchant's store exists.
 */
export async function inStore<P extends { storeId: string }>(p: AdminPage<P>): Promise<StorePage<P>> {
  const store = p.viewer.stores.find((s) => s.id === p.params.storeId) ?? (await findOwnedStore(p.platform, p.viewer.merchant.merchantId, p.params.storeId));
  if (!store) throw notFound('Store');
  return { ...p, store };
}

/** The admin path of a store's page: `/admin/stores/<id><rest>`. */
export const storePath = (store: { id: string }, rest = '') => `/admin/stores/${store.id}${rest}`;

/** A list's query string parsed by the API's own schema, the pagers' trails left out; a 400 page otherwise. */
export const parseQuery = <T extends z.ZodType>(p: AdminPage, schema: T): z.output<T> => parseListQuery(p.ctx, schema, (name) => name.endsWith('_trail'));

/** The pager's position in a list: the cursor the page was asked with and the ones before it. */
export function pagePosition(p: AdminPage) {
  const cursor = p.ctx.query.cursor;
  return { cursor: typeof cursor === 'string' ? cursor : null, trail: trailOf(p.ctx) };
}

/** A store's form that acts once however often it is sent (src/http/ui/once.ts): the merchant in this store sends it, under its `form_key`. */
export const onceScope = (s: StorePage, action: string, input: unknown): OnceScope => ({
  caller: `${s.viewer.merchant.merchantId}|${s.store.id}`,
  action,
  key: s.form.get('form_key'),
  input,
});
