import type { AppRouter } from '../http/context.js';
import { sessionForms } from '../http/page-access.js';
import { pages } from '../http/pages.js';
import type { Platform } from '../platform.js';
import {
  addAddressAction,
  addressPage,
  confirmDeleteAddress,
  createCustomerAction,
  defaultAddressAction,
  deleteAddressAction,
  inviteAction,
  newCustomerPage,
  privacyAction,
  privacyPage,
  updateAddressAction,
  updateCustomerAction,
} from './customers/actions.js';
import { customersPage } from './customers/list.js';
import { customerPage } from './customers/page.js';
import {
  confirmDeleteCoupon,
  couponPage,
  couponsPage,
  createCouponAction,
  deleteCouponAction,
  newCouponPage,
  updateCouponAction,
} from './discounts/coupons.js';
import { confirmDisableGiftCard, disableGiftCardAction, giftCardPage, giftCardsPage, issueGiftCardAction, newGiftCardPage } from './discounts/gift-cards.js';
import { confirmDeleteEntry, createEntryAction, deleteEntryAction, entriesPage, entryPage, newEntryPage, updateEntryAction } from './content/entries.js';
import { ARTICLE_KIND, PAGE_KIND } from './content/kinds.js';
import { addLinkAction, menuPage, moveMenuAction, saveMenuAction } from './content/menu.js';
import { appHostPage, bridgeAction } from './apps/embed/host.js';
import { appStorePage, installAppAction, listingPage } from './apps/app-store.js';
import { extensionsPage, registrationAction, runLogPage } from './apps/extensions.js';
import {
  appSettingsPage,
  capabilitiesAction,
  confirmUninstall,
  embedUrlAction,
  installedAppsPage,
  permissionsAction,
  uninstallAction,
} from './apps/installed.js';
import { homePage } from './home/page.js';
import { cancelExportAction, exportPage } from './exports/export.js';
import { exportsPage } from './exports/list.js';
import { newExportPage, startExportAction } from './exports/new.js';
import { catalogPreviewFrame } from './themes/catalog-preview.js';
import { buyAction, catalogStorePage, catalogThemePage, installAction, payAction } from './themes/catalog.js';
import { confirmPublish, libraryPage, previewAction, publishAction } from './themes/library.js';
import { confirmRollback, releasesPage, rollbackAction } from './themes/releases.js';
import { uploadAction, uploadedPage, uploadLimit, uploadPage } from './themes/upload.js';
import { adminErrorPage } from './layout.js';
import { adminStart, createStoreAction, newStorePage } from './new-store.js';
import { cancelAction, confirmCancel, fulfilAction, markPaidAction, refundAction } from './orders/actions.js';
import { ordersPage } from './orders/list.js';
import { createOrderAction, newOrderPage } from './orders/new.js';
import { orderPage } from './orders/order.js';
import {
  collectionPage,
  collectionProductsAction,
  collectionsPage,
  confirmDeleteCollection,
  createCollectionAction,
  deleteCollectionAction,
  updateCollectionAction,
} from './collections/pages.js';
import { confirmRemoveImage } from './products/images.js';
import { productsPage } from './products/list.js';
import { productCollectionsAction } from './products/collections.js';
import {
  altTextAction,
  archiveProductAction,
  confirmProductStep,
  createProductAction,
  deleteProductAction,
  moveImageAction,
  newProductPage,
  productPage,
  removeImageAction,
  stockAction,
  updateProductAction,
  uploadImageAction,
} from './products/product.js';
import { adminAccess, inStore } from './request.js';
import {
  blockAction,
  confirmDiscard,
  confirmPublish as confirmEditorPublish,
  discardAction,
  editorPage,
  publishAction as editorPublishAction,
  saveSettingsAction,
  sectionAction,
} from './themes/editor/actions.js';
import { previewFrame } from './themes/editor/preview.js';
import { settingsHome } from './settings/index.js';
import { notificationsPage, saveNotifications } from './settings/notifications.js';
import {
  notificationTemplatePage,
  previewNotificationTemplate,
  resetNotificationTemplate,
  saveNotificationTemplate,
  sendNotificationTest,
} from './settings/notification-templates.js';
import { paymentsPage, saveProvider } from './settings/payments.js';
import { saveShipping, shippingPage } from './settings/shipping.js';
import { saveStoreDetails, storeDetailsPage } from './settings/store.js';
import { saveTaxes, taxesPage } from './settings/taxes.js';
import { createLocationAction, locationActiveAction, locationPage, locationsPage, updateLocationAction } from './settings/locations.js';
import { accountSettingsPage, changePasswordAction, signOutOthersAction, updateNameAction } from './account.js';
import { createWebhookAction, newWebhookPage, webhooksPage } from './settings/webhooks.js';
import { deliveryPage, redeliverAction } from './settings/webhooks/delivery.js';
import {
  confirmDeleteSubscription,
  confirmRotateSecret,
  deleteSubscriptionAction,
  rotateSecretAction,
  subscriptionPage,
  updateSubscriptionAction,
} from './settings/webhooks/subscription.js';

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
  on.get('/account', (p) => accountSettingsPage(p));
  on.post('/account', (p) => updateNameAction(p));
  on.post('/account/password', (p) => changePasswordAction(p));
  on.post('/account/sessions', (p) => signOutOthersAction(p));

  on.get('/stores/:storeId', async (p) => homePage(await inStore(p)));

  on.get('/stores/:storeId/orders', async (p) => ordersPage(await inStore(p)));
  on.get('/stores/:storeId/orders/new', async (p) => newOrderPage(await inStore(p)));
  on.post('/stores/:storeId/orders/new', async (p) => createOrderAction(await inStore(p)));
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
  on.post('/stores/:storeId/products/:productId/collections', async (p) => productCollectionsAction(await inStore(p)));
  on.post('/stores/:storeId/products/:productId/images', { upload: (platform) => platform.config.media.maxBytes }, async (p) =>
    uploadImageAction(await inStore(p)),
  );
  on.post('/stores/:storeId/products/:productId/images/:mediaId', async (p) => altTextAction(await inStore(p)));
  on.post('/stores/:storeId/products/:productId/images/:mediaId/move', async (p) => moveImageAction(await inStore(p)));
  on.get('/stores/:storeId/products/:productId/images/:mediaId/remove', async (p) => confirmRemoveImage(await inStore(p)));
  on.post('/stores/:storeId/products/:productId/images/:mediaId/remove', async (p) => removeImageAction(await inStore(p)));
  on.get('/stores/:storeId/collections', async (p) => collectionsPage(await inStore(p)));
  on.post('/stores/:storeId/collections', async (p) => createCollectionAction(await inStore(p)));
  on.get('/stores/:storeId/collections/:collectionId', async (p) => collectionPage(await inStore(p)));
  on.post('/stores/:storeId/collections/:collectionId', async (p) => updateCollectionAction(await inStore(p)));
  on.post('/stores/:storeId/collections/:collectionId/products', async (p) => collectionProductsAction(await inStore(p)));
  on.get('/stores/:storeId/collections/:collectionId/delete', async (p) => confirmDeleteCollection(await inStore(p)));
  on.post('/stores/:storeId/collections/:collectionId/delete', async (p) => deleteCollectionAction(await inStore(p)));
  on.get('/stores/:storeId/products/:productId/archive', async (p) => confirmProductStep(await inStore(p), 'archive'));
  on.post('/stores/:storeId/products/:productId/archive', async (p) => archiveProductAction(await inStore(p)));
  on.get('/stores/:storeId/products/:productId/delete', async (p) => confirmProductStep(await inStore(p), 'delete'));
  on.post('/stores/:storeId/products/:productId/delete', async (p) => deleteProductAction(await inStore(p)));
  on.get('/stores/:storeId/customers', async (p) => customersPage(await inStore(p)));
  on.get('/stores/:storeId/customers/new', async (p) => newCustomerPage(await inStore(p)));
  on.post('/stores/:storeId/customers/new', async (p) => createCustomerAction(await inStore(p)));
  on.get('/stores/:storeId/customers/:customerId', async (p) => customerPage(await inStore(p)));
  on.post('/stores/:storeId/customers/:customerId', async (p) => updateCustomerAction(await inStore(p)));
  on.post('/stores/:storeId/customers/:customerId/invite', async (p) => inviteAction(await inStore(p)));
  on.post('/stores/:storeId/customers/:customerId/addresses', async (p) => addAddressAction(await inStore(p)));
  on.get('/stores/:storeId/customers/:customerId/addresses/:addressId', async (p) => addressPage(await inStore(p)));
  on.post('/stores/:storeId/customers/:customerId/addresses/:addressId', async (p) => updateAddressAction(await inStore(p)));
  on.post('/stores/:storeId/customers/:customerId/addresses/:addressId/default', async (p) => defaultAddressAction(await inStore(p)));
  on.get('/stores/:storeId/customers/:customerId/addresses/:addressId/delete', async (p) => confirmDeleteAddress(await inStore(p)));
  on.post('/stores/:storeId/customers/:customerId/addresses/:addressId/delete', async (p) => deleteAddressAction(await inStore(p)));
  on.get('/stores/:storeId/customers/:customerId/data-request', async (p) => privacyPage(await inStore(p), 'data-request'));
  on.post('/stores/:storeId/customers/:customerId/data-request', async (p) => privacyAction(await inStore(p), 'data-request'));
  on.get('/stores/:storeId/customers/:customerId/redact', async (p) => privacyPage(await inStore(p), 'redact'));
  on.post('/stores/:storeId/customers/:customerId/redact', async (p) => privacyAction(await inStore(p), 'redact'));

  on.get('/stores/:storeId/discounts', async (p) => couponsPage(await inStore(p)));
  on.get('/stores/:storeId/discounts/coupons/new', async (p) => newCouponPage(await inStore(p)));
  on.post('/stores/:storeId/discounts/coupons/new', async (p) => createCouponAction(await inStore(p)));
  on.get('/stores/:storeId/discounts/coupons/:couponId', async (p) => couponPage(await inStore(p)));
  on.post('/stores/:storeId/discounts/coupons/:couponId', async (p) => updateCouponAction(await inStore(p)));
  on.get('/stores/:storeId/discounts/coupons/:couponId/delete', async (p) => confirmDeleteCoupon(await inStore(p)));
  on.post('/stores/:storeId/discounts/coupons/:couponId/delete', async (p) => deleteCouponAction(await inStore(p)));
  on.get('/stores/:storeId/discounts/gift-cards', async (p) => giftCardsPage(await inStore(p)));
  on.get('/stores/:storeId/discounts/gift-cards/new', async (p) => newGiftCardPage(await inStore(p)));
  on.post('/stores/:storeId/discounts/gift-cards/new', async (p) => issueGiftCardAction(await inStore(p)));
  on.get('/stores/:storeId/discounts/gift-cards/:giftCardId', async (p) => giftCardPage(await inStore(p)));
  on.get('/stores/:storeId/discounts/gift-cards/:giftCardId/disable', async (p) => confirmDisableGiftCard(await inStore(p)));
  on.post('/stores/:storeId/discounts/gift-cards/:giftCardId/disable', async (p) => disableGiftCardAction(await inStore(p)));

  on.get('/stores/:storeId/content', async (p) => entriesPage(await inStore(p), PAGE_KIND));
  on.get('/stores/:storeId/content/pages/new', async (p) => newEntryPage(await inStore(p), PAGE_KIND));
  on.post('/stores/:storeId/content/pages/new', async (p) => createEntryAction(await inStore(p), PAGE_KIND));
  on.get('/stores/:storeId/content/pages/:entryId', async (p) => entryPage(await inStore(p), PAGE_KIND));
  on.post('/stores/:storeId/content/pages/:entryId', async (p) => updateEntryAction(await inStore(p), PAGE_KIND));
  on.get('/stores/:storeId/content/pages/:entryId/delete', async (p) => confirmDeleteEntry(await inStore(p), PAGE_KIND));
  on.post('/stores/:storeId/content/pages/:entryId/delete', async (p) => deleteEntryAction(await inStore(p), PAGE_KIND));
  on.get('/stores/:storeId/content/articles', async (p) => entriesPage(await inStore(p), ARTICLE_KIND));
  on.get('/stores/:storeId/content/articles/new', async (p) => newEntryPage(await inStore(p), ARTICLE_KIND));
  on.post('/stores/:storeId/content/articles/new', async (p) => createEntryAction(await inStore(p), ARTICLE_KIND));
  on.get('/stores/:storeId/content/articles/:entryId', async (p) => entryPage(await inStore(p), ARTICLE_KIND));
  on.post('/stores/:storeId/content/articles/:entryId', async (p) => updateEntryAction(await inStore(p), ARTICLE_KIND));
  on.get('/stores/:storeId/content/articles/:entryId/delete', async (p) => confirmDeleteEntry(await inStore(p), ARTICLE_KIND));
  on.post('/stores/:storeId/content/articles/:entryId/delete', async (p) => deleteEntryAction(await inStore(p), ARTICLE_KIND));
  on.get('/stores/:storeId/content/menu', async (p) => menuPage(await inStore(p)));
  on.post('/stores/:storeId/content/menu', async (p) => saveMenuAction(await inStore(p)));
  on.post('/stores/:storeId/content/menu/move', async (p) => moveMenuAction(await inStore(p)));
  on.post('/stores/:storeId/content/menu/add', async (p) => addLinkAction(await inStore(p)));
  on.get('/stores/:storeId/app-store', async (p) => appStorePage(await inStore(p)));
  on.get('/stores/:storeId/app-store/:appId', async (p) => listingPage(await inStore(p)));
  on.post('/stores/:storeId/app-store/:appId/install', async (p) => installAppAction(await inStore(p)));
  on.get('/stores/:storeId/apps', async (p) => installedAppsPage(await inStore(p)));
  on.get('/stores/:storeId/apps/:handle/settings', async (p) => appSettingsPage(await inStore(p)));
  on.post('/stores/:storeId/apps/:handle/capabilities', async (p) => capabilitiesAction(await inStore(p)));
  on.post('/stores/:storeId/apps/:handle/embed-url', async (p) => embedUrlAction(await inStore(p)));
  on.post('/stores/:storeId/apps/:handle/permissions', async (p) => permissionsAction(await inStore(p)));
  on.get('/stores/:storeId/apps/:handle/uninstall', async (p) => confirmUninstall(await inStore(p)));
  on.post('/stores/:storeId/apps/:handle/uninstall', async (p) => uninstallAction(await inStore(p)));
  on.get('/stores/:storeId/apps/:handle/extensions', async (p) => extensionsPage(await inStore(p)));
  on.post('/stores/:storeId/apps/:handle/extensions/:registrationId', async (p) => registrationAction(await inStore(p)));
  on.get('/stores/:storeId/apps/:handle/extensions/:registrationId/runs', async (p) => runLogPage(await inStore(p)));
  on.get('/stores/:storeId/themes', async (p) => libraryPage(await inStore(p)));
  on.get('/stores/:storeId/themes/store', async (p) => catalogStorePage(await inStore(p)));
  on.get('/stores/:storeId/themes/store/:slug', async (p) => catalogThemePage(await inStore(p)));
  on.get('/stores/:storeId/themes/store/:slug/preview', async (p) => catalogPreviewFrame(await inStore(p)));
  on.post('/stores/:storeId/themes/store/:slug/install', async (p) => installAction(await inStore(p)));
  on.post('/stores/:storeId/themes/store/:slug/buy', async (p) => buyAction(await inStore(p)));
  on.post('/stores/:storeId/themes/store/:slug/pay', async (p) => payAction(await inStore(p)));
  on.get('/stores/:storeId/themes/upload', async (p) => uploadPage(await inStore(p)));
  on.post('/stores/:storeId/themes/upload', { upload: uploadLimit }, async (p) => uploadAction(await inStore(p)));
  on.get('/stores/:storeId/themes/uploads/:slug', async (p) => uploadedPage(await inStore(p)));
  on.get('/stores/:storeId/themes/:themeId/publish', async (p) => confirmPublish(await inStore(p)));
  on.post('/stores/:storeId/themes/:themeId/publish', async (p) => publishAction(await inStore(p)));
  on.post('/stores/:storeId/themes/:themeId/preview', async (p) => previewAction(await inStore(p)));
  on.get('/stores/:storeId/themes/:themeId/releases', async (p) => releasesPage(await inStore(p)));
  on.get('/stores/:storeId/themes/:themeId/releases/:number/rollback', async (p) => confirmRollback(await inStore(p)));
  on.post('/stores/:storeId/themes/:themeId/releases/:number/rollback', async (p) => rollbackAction(await inStore(p)));
  // The embedded app host and the bridge its script asks (docs/app-bridge.md; src/admin/apps/embed/).
  on.get('/stores/:storeId/apps/:handle', async (p) => appHostPage(await inStore(p)));
  on.post('/stores/:storeId/apps/:handle/bridge', async (p) => bridgeAction(await inStore(p)));
  on.get('/stores/:storeId/settings', async (p) => settingsHome(await inStore(p)));
  on.get('/stores/:storeId/settings/store', async (p) => storeDetailsPage(await inStore(p)));
  on.post('/stores/:storeId/settings/store', async (p) => saveStoreDetails(await inStore(p)));
  on.get('/stores/:storeId/settings/shipping', async (p) => shippingPage(await inStore(p)));
  on.post('/stores/:storeId/settings/shipping', async (p) => saveShipping(await inStore(p)));
  on.get('/stores/:storeId/settings/taxes', async (p) => taxesPage(await inStore(p)));
  on.post('/stores/:storeId/settings/taxes', async (p) => saveTaxes(await inStore(p)));
  on.get('/stores/:storeId/settings/payments', async (p) => paymentsPage(await inStore(p)));
  on.post('/stores/:storeId/settings/payments/:provider', async (p) => saveProvider(await inStore(p)));
  on.get('/stores/:storeId/settings/notifications', async (p) => notificationsPage(await inStore(p)));
  on.post('/stores/:storeId/settings/notifications', async (p) => saveNotifications(await inStore(p)));
  on.get('/stores/:storeId/settings/notifications/:kind', async (p) => notificationTemplatePage(await inStore(p), p.params.kind));
  on.post('/stores/:storeId/settings/notifications/:kind', async (p) => saveNotificationTemplate(await inStore(p), p.params.kind));
  on.post('/stores/:storeId/settings/notifications/:kind/preview', async (p) => previewNotificationTemplate(await inStore(p), p.params.kind));
  on.post('/stores/:storeId/settings/notifications/:kind/reset', async (p) => resetNotificationTemplate(await inStore(p), p.params.kind));
  on.post('/stores/:storeId/settings/notifications/:kind/test', async (p) => sendNotificationTest(await inStore(p), p.params.kind));
  on.get('/stores/:storeId/settings/locations', async (p) => locationsPage(await inStore(p)));
  on.post('/stores/:storeId/settings/locations', async (p) => createLocationAction(await inStore(p)));
  on.get('/stores/:storeId/settings/locations/:locationId', async (p) => locationPage(await inStore(p)));
  on.post('/stores/:storeId/settings/locations/:locationId', async (p) => updateLocationAction(await inStore(p)));
  on.post('/stores/:storeId/settings/locations/:locationId/deactivate', async (p) => locationActiveAction(await inStore(p), false));
  on.post('/stores/:storeId/settings/locations/:locationId/activate', async (p) => locationActiveAction(await inStore(p), true));
  on.get('/stores/:storeId/settings/webhooks', async (p) => webhooksPage(await inStore(p)));
  on.get('/stores/:storeId/settings/webhooks/new', async (p) => newWebhookPage(await inStore(p)));
  on.post('/stores/:storeId/settings/webhooks/new', async (p) => createWebhookAction(await inStore(p)));
  on.get('/stores/:storeId/settings/webhooks/:subscriptionId', async (p) => subscriptionPage(await inStore(p)));
  on.post('/stores/:storeId/settings/webhooks/:subscriptionId', async (p) => updateSubscriptionAction(await inStore(p)));
  on.get('/stores/:storeId/settings/webhooks/:subscriptionId/rotate-secret', async (p) => confirmRotateSecret(await inStore(p)));
  on.post('/stores/:storeId/settings/webhooks/:subscriptionId/rotate-secret', async (p) => rotateSecretAction(await inStore(p)));
  on.get('/stores/:storeId/settings/webhooks/:subscriptionId/delete', async (p) => confirmDeleteSubscription(await inStore(p)));
  on.post('/stores/:storeId/settings/webhooks/:subscriptionId/delete', async (p) => deleteSubscriptionAction(await inStore(p)));
  on.get('/stores/:storeId/settings/webhooks/:subscriptionId/deliveries/:deliveryId', async (p) => deliveryPage(await inStore(p)));
  on.post('/stores/:storeId/settings/webhooks/:subscriptionId/deliveries/:deliveryId/redeliver', async (p) => redeliverAction(await inStore(p)));
  // The theme editor (src/admin/themes/editor): an installed theme's drafts per template, its preview, publish and discard.
  on.get('/stores/:storeId/themes/:themeId/editor', async (p) => editorPage(await inStore(p)));
  on.post('/stores/:storeId/themes/:themeId/editor', async (p) => saveSettingsAction(await inStore(p)));
  on.post('/stores/:storeId/themes/:themeId/editor/sections', async (p) => sectionAction(await inStore(p)));
  on.post('/stores/:storeId/themes/:themeId/editor/blocks', async (p) => blockAction(await inStore(p)));
  on.get('/stores/:storeId/themes/:themeId/editor/preview', async (p) => previewFrame(await inStore(p)));
  on.get('/stores/:storeId/themes/:themeId/editor/publish', async (p) => confirmEditorPublish(await inStore(p)));
  on.post('/stores/:storeId/themes/:themeId/editor/publish', async (p) => editorPublishAction(await inStore(p)));
  on.get('/stores/:storeId/themes/:themeId/editor/discard', async (p) => confirmDiscard(await inStore(p)));
  on.post('/stores/:storeId/themes/:themeId/editor/discard', async (p) => discardAction(await inStore(p)));

  on.get('/stores/:storeId/exports', async (p) => exportsPage(await inStore(p)));
  on.get('/stores/:storeId/exports/new', async (p) => newExportPage(await inStore(p)));
  on.post('/stores/:storeId/exports/new', async (p) => startExportAction(await inStore(p)));
  on.get('/stores/:storeId/exports/:operationId', async (p) => exportPage(await inStore(p)));
  on.post('/stores/:storeId/exports/:operationId/cancel', async (p) => cancelExportAction(await inStore(p)));

  return on.router;
}
