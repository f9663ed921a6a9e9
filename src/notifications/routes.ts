import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { PreviewBody, PutTemplateBody } from './schemas.js';
import {
  getNotification,
  listNotifications,
  previewNotification,
  putNotification,
  resetNotification,
  sendTestNotification,
  type LatestOrder,
} from './templates.js';

/** The merchant's own (a store's notifications are the store's voice: no app edits them). */
const merchant = storeScoped(null, { apps: false });

/** /v1/notifications: a store's notification templates (docs/notifications.md, API). */
export const notificationRoutes =
  (latest: LatestOrder | null) =>
  (platform: Platform): AppRouter => {
    const on = routes(platform);
    on.get('/', { access: merchant, respond: 'page' }, async ({ store }) => ({ items: await listNotifications(platform, store.id), nextCursor: null }));
    on.get('/:kind', { access: merchant }, ({ store, params }) => getNotification(platform, store.id, params.kind));
    on.put('/:kind', { access: merchant, body: PutTemplateBody }, ({ store, params, body }) => putNotification(platform, store.id, params.kind, body));
    on.delete('/:kind', { access: merchant }, ({ store, params }) => resetNotification(platform, store.id, params.kind));
    on.post('/:kind/preview', { access: merchant, body: PreviewBody }, ({ store, params, body }) =>
      previewNotification(platform, store, params.kind, body, latest),
    );
    on.post('/:kind/test', { access: merchant, status: 202 }, ({ store, params }) => sendTestNotification(platform, store, params.kind, latest));
    return on.router;
  };
