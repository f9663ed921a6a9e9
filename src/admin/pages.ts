import type { AppRouter } from '../http/context.js';
import { sessionForms } from '../http/page-access.js';
import { pages } from '../http/pages.js';
import type { Platform } from '../platform.js';
import { homePage } from './home/page.js';
import { adminErrorPage } from './layout.js';
import { adminStart, createStoreAction, newStorePage } from './new-store.js';
import { cancelAction, confirmCancel, fulfilAction, markPaidAction, refundAction } from './orders/actions.js';
import { ordersPage } from './orders/list.js';
import { orderPage } from './orders/order.js';
import { collectionPage, collectionProductsAction, collectionsPage, createCollectionAction, updateCollectionAction } from './collections/pages.js';
import { productsPage } from './products/list.js';
import {
  archiveProductAction,
  confirmProductStep,
  createProductAction,
  deleteProductAction,
  newProductPage,
  productPage,
  stockAction,
  updateProductAction,
} from './products/product.js';
import { adminAccess, inStore } from './request.js';

/**
 * The merchant admin's pages (docs/admin.md): every route of `/admin` is a line here. Each
 * section's handlers and views live in its folder (`home/`, `orders/`, …); a store's pages are
 * under `/stores/:storeId`, which `inStore` resolves to a store the signed-in merchant owns (else
 * the admin's 404 page, nothing done). Access: a merchant's browser session cookie only; every
 * form carries the session's CSRF token; any other path under /admin is a 404 page.
 */
export function adminPages(platform: Platform): AppRouter {
  const on = pages(platform, { name: 'admin', access: adminAccess, csrf: sessionForms, errorPage: adminErrorPage, ownsMount: true });

  on.get('/', (p) => adminStart(p));
  on.get('/stores/new', (p) => newStorePage(p));
  on.post('/stores/new', (p) => createStoreAction(p));

  on.get('/stores/:storeId', async (p) => homePage(await inStore(p)));

  on.get('/stores/:storeId/orders', async (p) => ordersPage(await inStore(p)));
  on.get('/stores/:storeId/orders/:orderId', async (p) => orderPage(await inStore(p)));
  on.post('/stores/:storeId/orders/:orderId/fulfil', async (p) => fulfilAction(await inStore(p)));
  on.post('/stores/:storeId/orders/:orderId/refund', async (p) => refundAction(await inStore(p)));
  on.post('/stores/:storeId/orders/:orderId/mark-paid', async (p) => markPaidAction(await inStore(p)));
  on.get('/stores/:storeId/orders/:orderId/cancel', async (p) => confirmCancel(await inStore(p)));
  on.post('/stores/:storeId/orders/:orderId/cancel', async (p) => cancelAction(await inStore(p)));

  on.get('/stores/:storeId/products', async (p) => productsPage(await inStore(p)));
  on.get('/stores/:storeId/products/new', async (p) => newProductPage(await inStore(p)));
  on.post('/stores/:storeId/products/new', async (p) => createProductAction(await inStore(p)));
  on.get('/stores/:storeId/products/:productId', async (p) => productPage(await inStore(p)));
  on.post('/stores/:storeId/products/:productId', async (p) => updateProductAction(await inStore(p)));
  on.post('/stores/:storeId/products/:productId/stock', async (p) => stockAction(await inStore(p)));
  on.get('/stores/:storeId/collections', async (p) => collectionsPage(await inStore(p)));
  on.post('/stores/:storeId/collections', async (p) => createCollectionAction(await inStore(p)));
  on.get('/stores/:storeId/collections/:collectionId', async (p) => collectionPage(await inStore(p)));
  on.post('/stores/:storeId/collections/:collectionId', async (p) => updateCollectionAction(await inStore(p)));
  on.post('/stores/:storeId/collections/:collectionId/products', async (p) => collectionProductsAction(await inStore(p)));
  on.get('/stores/:storeId/products/:productId/archive', async (p) => confirmProductStep(await inStore(p), 'archive'));
  on.post('/stores/:storeId/products/:productId/archive', async (p) => archiveProductAction(await inStore(p)));
  on.get('/stores/:storeId/products/:productId/delete', async (p) => confirmProductStep(await inStore(p), 'delete'));
  on.post('/stores/:storeId/products/:productId/delete', async (p) => deleteProductAction(await inStore(p)));

  return on.router;
}
