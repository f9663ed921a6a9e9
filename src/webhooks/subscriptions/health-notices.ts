import { z } from 'zod';
import type { DomainEvent } from '../../events/index.js';
import { merchantEmail } from '../../auth/index.js';
import { sendMessage, type OutgoingMessage } from '../../messages/index.js';
import type { EventHookDeps } from '../../module.js';
import type { Platform } from '../../platform.js';
import { findStoreById } from '../../stores/index.js';
import { backoff } from '../../work/lease.js';
import { DISABLE_AFTER_FAILED_DELIVERIES, LAST_ATTEMPT } from '../deliveries/delivery.js';

/**
 * Health notices (docs/webhooks.md, Subscription health): the message a subscription's owner gets
 * when it starts failing and when it is disabled, once each per episode. They are heard from the
 * events that the changes carry (`webhook_subscription.failing`, `.disabled`: recorded once, by
 * their keys), so each is sent once: a merchant's by this domain's event hook
 * (noticeMerchant in index.ts's module), an app's by the apps domain's, which knows its partner.
 */

const HealthEventPayload = z.object({
  webhook_subscription: z.object({
    id: z.string(),
    target_url: z.string(),
    owner: z.object({ type: z.enum(['merchant', 'app_installation']), id: z.string() }),
    disabled_reason: z.enum(['gone', 'failing']).nullable(),
    disabled_at: z.string().nullable(),
    failure_streak: z.number(),
    failing_since: z.string().nullable(),
    last_error: z.object({ status: z.number().nullable(), message: z.string(), at: z.string() }).nullable(),
  }),
});

const NOTICE_KINDS = new Map([
  ['webhook_subscription.failing', 'failing'],
  ['webhook_subscription.disabled', 'disabled'],
] as const);

export type HealthNotice = {
  kind: 'failing' | 'disabled';
  storeId: string;
  subscription: z.infer<typeof HealthEventPayload>['webhook_subscription'];
};

/** The notice an event is, or null (another type, or a payload of before issue 26). */
export function readHealthNotice(event: Pick<DomainEvent, 'type' | 'payload' | 'store_id'>): HealthNotice | null {
  const kind = NOTICE_KINDS.get(event.type as 'webhook_subscription.failing');
  const parsed = kind && event.store_id ? HealthEventPayload.safeParse(event.payload) : null;
  return kind && parsed?.success ? { kind, storeId: event.store_id!, subscription: parsed.data.webhook_subscription } : null;
}

/** Who is told of an event about to be recorded (the modules' `wanted` hooks): the merchant, the app's partner, or nobody. */
export function healthNoticeAudience(event: { type: string; payload: Record<string, unknown> }): 'merchant' | 'partner' | null {
  if (!NOTICE_KINDS.has(event.type as 'webhook_subscription.failing')) return null;
  const parsed = HealthEventPayload.safeParse(event.payload);
  if (!parsed.success) return null;
  return parsed.data.webhook_subscription.owner.type === 'merchant' ? 'merchant' : 'partner';
}

export type NoticeReader = { storeName: string | null } & ({ audience: 'merchant' } | { audience: 'partner'; appId: string; appName: string });

/** The message: which endpoint, since when, the last error, what happens next and how to fix or re-enable it. */
export function healthNoticeMessage(platform: Pick<Platform, 'config'>, notice: HealthNotice, to: string, reader: NoticeReader): OutgoingMessage {
  const s = notice.subscription;
  const store = reader.storeName ? `“${reader.storeName}” (${notice.storeId})` : notice.storeId;
  const whose = reader.audience === 'merchant' ? `your store ${store}` : `your app ${reader.appName} in the store ${store}`;
  const deliveries = reader.audience === 'merchant' ? '/v1/operations/webhook-deliveries' : `/v1/app-store/developers/apps/${reader.appId}/webhook-deliveries`;
  const log = `${deliveries}?${reader.audience === 'merchant' ? `subscription_id=${s.id}` : `store_id=${notice.storeId}`}`;
  const facts = [
    `Subscription: ${s.id}`,
    `Endpoint: ${s.target_url}`,
    `Failing since: ${s.failing_since ?? 'unknown'}`,
    `Last error: ${s.last_error ? `${s.last_error.message} (at ${s.last_error.at})` : 'none recorded'}`,
  ];
  if (notice.kind === 'failing') {
    return {
      kind: 'webhook_subscription_failing',
      to,
      subject: `Webhook endpoint failing: ${s.target_url}`,
      text: [
        `Webhook deliveries from ${whose} to ${s.target_url} are failing: ${s.failure_streak} attempts in a row have failed.`,
        '',
        ...facts,
        '',
        `What happens next: each delivery is tried ${LAST_ATTEMPT + 1} times in all, over about ${retrySpan(platform)}. If ${DISABLE_AFTER_FAILED_DELIVERIES} deliveries in a row fail every attempt, the subscription is disabled and receives nothing more. The next successful delivery makes it healthy again; you will not hear about this endpoint again until it has recovered and then fails anew.`,
        '',
        `To fix it: make the endpoint answer a 2xx status within ${platform.config.webhooks.timeoutMs / 1000} seconds (is it up and reachable? does it verify X-Platform-Hmac-SHA256 with the right signing secret?). The failed attempts are in the delivery log: GET ${log}&status=retrying`,
      ].join('\n'),
    };
  }
  const why = s.disabled_reason === 'gone' ? ', each ending with 410 Gone' : '';
  const reEnable =
    reader.audience === 'merchant'
      ? `To re-enable it, fix the endpoint first (it must answer 2xx), then: PATCH /v1/operations/webhook-subscriptions/${s.id} with {"active": true}. That starts afresh: a new failure tells you again.`
      : `It is enabled again by the merchant's next authorization of your app (with a working webhook_url): fix the endpoint first.`;
  return {
    kind: 'webhook_subscription_disabled',
    to,
    subject: `Webhook subscription disabled: ${s.target_url}`,
    text: [
      `The webhook subscription of ${whose} to ${s.target_url} was disabled${s.disabled_at ? ` at ${s.disabled_at}` : ''}: ${DISABLE_AFTER_FAILED_DELIVERIES} deliveries in a row failed every attempt${why}.`,
      '',
      ...facts,
      '',
      'What happens next: nothing more is sent to it, and events recorded while it is disabled are not delivered to it later.',
      '',
      reEnable,
      `Deliveries that failed can then be sent again: list them with GET ${log}&status=failed, and send each with POST ${deliveries}/<delivery id>/redeliver.`,
    ].join('\n'),
  };
}

/** How long a delivery's attempts take with the configured schedule (about 4 hours with the spec's). */
function retrySpan(platform: Pick<Platform, 'config'>): string {
  const { retryBaseSeconds: base, retryCapSeconds: cap } = platform.config.webhooks;
  let seconds = 0;
  for (let n = 0; n < LAST_ATTEMPT; n++) seconds += backoff(base, n, cap);
  if (seconds >= 5400) return `${Math.round(seconds / 3600)} hours`;
  if (seconds >= 90) return `${Math.round(seconds / 60)} minutes`;
  return `${Math.max(1, Math.round(seconds))} seconds`;
}

/**
 * A merchant subscription's notice, to the merchant who owns it (the events' `afterRecord`: the
 * event was just recorded, once). Never throws: a notice that cannot be sent is logged, and the
 * change it reports stands.
 */
export async function noticeMerchant(platform: EventHookDeps, event: DomainEvent): Promise<void> {
  const notice = readHealthNotice(event);
  if (!notice || notice.subscription.owner.type !== 'merchant') return;
  const ids = { subscription_id: notice.subscription.id, store_id: notice.storeId, notice: notice.kind };
  try {
    const [to, store] = await Promise.all([merchantEmail(platform, notice.subscription.owner.id), findStoreById(platform, notice.storeId)]);
    if (!to) return platform.log.warn({ event: 'webhook.health_notice_unaddressed', ...ids });
    const messageId = await sendMessage(platform, healthNoticeMessage(platform, notice, to, { audience: 'merchant', storeName: store?.name ?? null }));
    platform.log.info({ event: 'webhook.health_notice_queued', ...ids, message_id: messageId });
  } catch (err) {
    platform.log.error({ event: 'webhook.health_notice_failed', ...ids, err: (err as Error).message });
  }
}
