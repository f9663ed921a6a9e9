import type { AppRouter } from '../../http/context.js';
import { routes, storeScoped } from '../../http/endpoint.js';
import { PageQuery } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { RotateSecretBody, subscriptionSchemas } from './schemas.js';
import { createSubscription, deleteSubscription, getSubscription, listSubscriptions, rotateSubscriptionSecret, updateSubscription } from './service.js';

/** Operations routes are the merchant's (apps manage their subscriptions through their manifest). */
const MERCHANT_OPERATIONS = storeScoped(null, { apps: false });

/** /v1/operations/webhook-subscriptions: a store's webhook subscriptions (docs/webhooks.md). */
export function webhookSubscriptionRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  const { CreateSubscriptionBody, UpdateSubscriptionBody } = subscriptionSchemas(platform.events);
  const access = MERCHANT_OPERATIONS;

  on.get('/', { access, query: PageQuery.strict(), respond: 'page' }, ({ store, query }) => listSubscriptions(platform, store.id, query));

  // Idempotent so a lost response can be retried and still show the secret (stored responses are encrypted).
  on.post('/', { access, body: CreateSubscriptionBody, idempotent: true, status: 201 }, ({ principal, store, body }) =>
    createSubscription(platform, store.id, { type: 'merchant', id: principal.merchantId }, body),
  );

  on.get('/:id', { access }, ({ store, params }) => getSubscription(platform, store.id, params.id));

  on.patch('/:id', { access, body: UpdateSubscriptionBody }, ({ store, params, body }) => updateSubscription(platform, store.id, params.id, body));

  on.delete('/:id', { access, respond: 'empty' }, ({ store, params }) => deleteSubscription(platform, store.id, params.id));

  on.post('/:id/rotate-secret', { access, body: RotateSecretBody, idempotent: true }, ({ store, params, body }) =>
    rotateSubscriptionSecret(platform, store.id, params.id, body),
  );

  return on.router;
}
