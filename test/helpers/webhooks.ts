import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { useTestApp, type TestApp } from './app.js';
import { expectCreated, type As } from './factories.js';
import type { Client } from './http.js';
import { startWorker, stopAll, WORKER_STARTED, type RunningProcess } from './processes.js';
import { freePort, until } from './waiting.js';
import { WebhookReceiver } from './webhook-receiver.js';

export type WebhooksApp = {
  app: TestApp;
  api: Client;
  /** The partner's endpoint, verifying every request as spec 6.1 says (test/helpers/webhook-receiver.ts). */
  receiver: WebhookReceiver;
  /** The free port the web process reaches the webhooks worker on (WEBHOOKS_INTERNAL_URL). */
  internal: { port: number };
  /** The workers started so far; stopped after the block. */
  workers: RunningProcess[];
  /**
   * A Procfile worker on the app's database, once it printed `ready`; a `webhooks` worker
   * listens on the internal port (unless `env` says otherwise).
   */
  startWorker(group?: string, env?: Record<string, string>, ready?: string): Promise<RunningProcess>;
};

/**
 * What a webhooks test runs, for one describe block: a receiver (HTTPS with `tls`, a certificate
 * the workers trust), the web app with `env` and WEBHOOKS_INTERNAL_URL on a free port, and the
 * worker `groups` once the app runs. The objects are filled in by `before` hooks registered here,
 * so they run before the block's own. After the block: the workers killed, then the receiver
 * and the app closed.
 */
export function useWebhooksApp(
  name: string,
  env: Record<string, string>,
  options: { groups?: string[]; tls?: () => { key: string; cert: string } } = {},
): WebhooksApp {
  const receiver = new WebhookReceiver();
  const internal = { port: 0 };
  const workers: RunningProcess[] = [];
  before(async () => {
    await receiver.start(options.tls?.());
    internal.port = await freePort();
  });
  after(async () => {
    await stopAll(workers);
    await receiver.close();
  });
  const { app, api } = useTestApp(name, () => ({ ...env, WEBHOOKS_INTERNAL_URL: `http://127.0.0.1:${internal.port}` }));
  const start = (group = 'webhooks', extra: Record<string, string> = {}, ready = WORKER_STARTED) =>
    startWorker(app, group, workers, group === 'webhooks' ? { WEBHOOKS_INTERNAL_PORT: String(internal.port), ...extra } : extra, ready);
  before(async () => {
    for (const group of options.groups ?? []) await start(group);
  });
  return { app, api, receiver, internal, workers, startWorker: start };
}

/** Renames the store, which records a store.updated event (heard by subscriptions to `store.*`): the event's id. */
export async function renameStore(app: TestApp, api: Client, as: As): Promise<string> {
  const res = await api.patch(`/v1/stores/${as.storeId}`, { name: `Renamed ${new ObjectId().toHexString()}` }, as);
  expect(res.status).to.equal(200);
  const event = await app.platform.db
    .collection('events')
    .find({ type: 'store.updated', store_id: new ObjectId(as.storeId) })
    .sort({ _id: -1 })
    .limit(1)
    .next();
  return event!._id.toHexString();
}

/**
 * The merchant's view of the delivery of `eventId` to `subscriptionId`, with its attempts, once
 * it exists and (unless `settled` is false) is no longer queued.
 */
export function deliveryOf(api: Client, as: As, subscriptionId: string, eventId: string, settled = true): Promise<any> {
  return until(`the delivery of ${eventId} to ${subscriptionId}${settled ? ' to finish' : ''}`, async () => {
    const [d] = (await api.get(`/v1/operations/webhook-deliveries?subscription_id=${subscriptionId}&event_id=${eventId}`, as)).body.data;
    if (!d || (settled && d.status === 'queued')) return null;
    return (await api.get(`/v1/operations/webhook-deliveries/${d.id}`, as)).body.data;
  });
}

/**
 * A webhook subscription of the store, to `order.created` at a placeholder partner URL unless
 * `body` says otherwise: the subscription as answered, with its signing secret (shown once).
 */
export const givenSubscription = (api: Client, as: As, body: Record<string, unknown> = {}): Promise<any> =>
  expectCreated(
    api.post('/v1/operations/webhook-subscriptions', { target_url: 'https://hooks.example.com/emporium', event_types: ['order.created'], ...body }, as),
  );

/** A subscription to `eventTypes` delivered to `receiver`'s `path`, which checks every request's signature with its secret. */
export async function givenSubscriptionTo(api: Client, as: As, receiver: WebhookReceiver, path: string, eventTypes = ['store.*']): Promise<any> {
  const subscription = await givenSubscription(api, as, { target_url: `${receiver.url}${path}`, event_types: eventTypes });
  receiver.expectSecret(path, subscription.secret);
  return subscription;
}
