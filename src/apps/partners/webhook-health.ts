import type { DomainEvent } from '../../events/index.js';
import { parseObjectId } from '../../ids.js';
import { sendMessage } from '../../messages/index.js';
import type { EventHookDeps } from '../../module.js';
import { findStoreById } from '../../stores/index.js';
import { healthNoticeAudience, healthNoticeMessage, readHealthNotice } from '../../webhooks/index.js';
import { installations } from '../installations/models.js';
import { apps, developers } from './models.js';

/**
 * The apps domain's event hooks: an app installation's webhook subscription that starts failing
 * or is disabled (docs/webhooks.md, Subscription health) is told to the app's partner, at the
 * developer profile's contact email: the webhooks domain records the event once per episode
 * (it cannot know partners: apps imports webhooks), and this hears it once, when it is recorded.
 */
export const partnerNoticeHooks = (platform: EventHookDeps) => ({
  wanted: async (docs: readonly { type: string; payload: Record<string, unknown> }[]) => docs.map((doc) => healthNoticeAudience(doc) === 'partner'),
  afterRecord: (event: DomainEvent) => noticePartner(platform, event),
});

/** Never throws: a notice that cannot be sent is logged, and the change it reports stands. */
async function noticePartner(platform: EventHookDeps, event: DomainEvent): Promise<void> {
  const notice = readHealthNotice(event);
  if (!notice || notice.subscription.owner.type !== 'app_installation') return;
  const ids = { subscription_id: notice.subscription.id, store_id: notice.storeId, notice: notice.kind };
  try {
    const installationId = parseObjectId(notice.subscription.owner.id);
    const installation = installationId ? await installations(platform.db).findOne({ _id: installationId }, { projection: { app_id: 1 } }) : null;
    const app = installation ? await apps(platform.db).findOne({ _id: installation.app_id }, { projection: { developer_id: 1, name: 1, published: 1 } }) : null;
    const developer = app ? await developers(platform.db).findOne({ _id: app.developer_id }, { projection: { contact_email: 1 } }) : null;
    if (!app || !developer) return platform.log.warn({ event: 'app.webhook_health_notice_unaddressed', ...ids });
    const store = await findStoreById(platform, notice.storeId);
    const message = healthNoticeMessage(platform, notice, developer.contact_email, {
      audience: 'partner',
      appId: app._id.toHexString(),
      appName: app.published?.name ?? app.name,
      storeName: store?.name ?? null,
    });
    const messageId = await sendMessage(platform, message);
    platform.log.info({ event: 'app.webhook_health_notice_queued', ...ids, app_id: app._id.toHexString(), message_id: messageId });
  } catch (err) {
    platform.log.error({ event: 'app.webhook_health_notice_failed', ...ids, err: (err as Error).message });
  }
}
