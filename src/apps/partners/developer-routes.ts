import type { AppRouter } from '../../http/context.js';
import { routes } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { listDeveloperAppReviews, replyToAppRating, updateAppRatingReply } from '../ratings/service.js';
import { rotateApiKey } from './credentials.js';
import { getDeveloperProfile, registerDeveloper, requireDeveloper } from './developers.js';
import { getAppDelivery, listAppDeliveries, listAppWebhookSubscriptions, redeliverAppDelivery } from './app-webhooks.js';
import { AppWebhookSubscriptionsQuery, DeveloperAppsQuery, ManifestBody, RegisterDeveloperBody } from './schemas.js';
import { AppRatingReplyBody, AppRatingsQuery } from '../ratings/schemas.js';
import { AppDeliveriesQuery, RotateSecretBody } from '../../webhooks/index.js';
import { getDeveloperApp, listDeveloperApps, rotateWebhookSecret, submitApp, submitVersion, validateManifestFor } from './submissions.js';

/** /v1/app-store/developers: partners (developer profile, app submission, manifests, credentials, the app's webhooks). */
export function developerRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/register', { access: 'merchant' }, ({ merchant }) => getDeveloperProfile(platform, merchant.merchantId));

  // Creates (201) or replaces (200) the caller's profile.
  on.post('/register', { access: 'merchant', body: RegisterDeveloperBody, respond: 'raw' }, async ({ ctx, merchant, body }) => {
    const { created, developer } = await registerDeveloper(platform, merchant.merchantId, body);
    ctx.status = created ? 201 : 200;
    ctx.body = { data: developer };
  });

  // Before /apps/:id. An invalid manifest is an answer here (ok: false), not an error.
  on.post('/apps/manifest/validate', { access: 'merchant', body: ManifestBody }, ({ merchant, body }) =>
    validateManifestFor(platform, merchant.merchantId, body.manifest),
  );

  on.get('/apps', { access: 'merchant', query: DeveloperAppsQuery, respond: 'page' }, ({ merchant, query }) =>
    listDeveloperApps(platform, merchant.merchantId, query),
  );

  on.post('/apps', { access: 'merchant', body: ManifestBody, idempotent: true, status: 201 }, ({ merchant, body }) =>
    submitApp(platform, merchant.merchantId, body),
  );

  on.get('/apps/:id', { access: 'merchant' }, ({ merchant, params }) => getDeveloperApp(platform, merchant.merchantId, params.id));

  on.post('/apps/:id/versions', { access: 'merchant', body: ManifestBody, idempotent: true, status: 201 }, ({ merchant, params, body }) =>
    submitVersion(platform, merchant.merchantId, params.id, body),
  );

  on.post('/apps/:id/api-key', { access: 'merchant', idempotent: true }, async ({ merchant, params }) => {
    await requireDeveloper(platform, merchant.merchantId);
    return rotateApiKey(platform, merchant.merchantId, params.id);
  });

  // A new show-once webhook signing secret; the previous one signs beside it for the grace period.
  on.post('/apps/:id/webhook-secret', { access: 'merchant', body: RotateSecretBody, idempotent: true }, ({ merchant, params, body }) =>
    rotateWebhookSecret(platform, merchant.merchantId, params.id, body.grace_period_seconds),
  );

  // Catalog reviews of the partner's app, and the partner's one reply to each (docs/apps.md, Catalog reviews of apps).
  on.get('/apps/:id/reviews', { access: 'merchant', query: AppRatingsQuery, respond: 'page' }, ({ merchant, params, query }) =>
    listDeveloperAppReviews(platform, merchant.merchantId, params.id, query),
  );

  on.post('/apps/:id/reviews/:reviewId/reply', { access: 'merchant', body: AppRatingReplyBody, idempotent: true, status: 201 }, ({ merchant, params, body }) =>
    replyToAppRating(platform, merchant.merchantId, params.id, params.reviewId, body),
  );

  on.patch('/apps/:id/reviews/:reviewId/reply', { access: 'merchant', body: AppRatingReplyBody }, ({ merchant, params, body }) =>
    updateAppRatingReply(platform, merchant.merchantId, params.id, params.reviewId, body),
  );

  // The app's webhooks: its installations' subscriptions, and their deliveries log and redelivery.
  on.get('/apps/:id/webhook-subscriptions', { access: 'merchant', query: AppWebhookSubscriptionsQuery, respond: 'page' }, ({ merchant, params, query }) =>
    listAppWebhookSubscriptions(platform, merchant.merchantId, params.id, query),
  );
  on.get('/apps/:id/webhook-deliveries', { access: 'merchant', query: AppDeliveriesQuery, respond: 'page' }, ({ merchant, params, query }) =>
    listAppDeliveries(platform, merchant.merchantId, params.id, query),
  );
  on.get('/apps/:id/webhook-deliveries/:deliveryId', { access: 'merchant' }, ({ merchant, params }) =>
    getAppDelivery(platform, merchant.merchantId, params.id, params.deliveryId),
  );
  on.post('/apps/:id/webhook-deliveries/:deliveryId/redeliver', { access: 'merchant', status: 202 }, ({ merchant, params }) =>
    redeliverAppDelivery(platform, merchant.merchantId, params.id, params.deliveryId),
  );

  return on.router;
}
