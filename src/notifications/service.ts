import { ObjectId } from 'mongodb';
import { merchantEmail } from '../auth/index.js';
import { invalidInput, notFound } from '../errors.js';
import type { ScopedStore } from '../http/context.js';
import { sendMessage } from '../messages/index.js';
import type { Platform } from '../platform.js';
import { findStoreOwnerId } from '../stores/index.js';
import { getLiveTheme } from '../themes/index.js';
import { defaultTemplate, NOTIFICATION_INFO, NOTIFICATION_KINDS, type NotificationKind, type NotificationTemplate } from './defaults.js';
import { emailLayout, hexColor, NEUTRAL_COLORS, textOn, type EmailColors } from './layout.js';
import { parseTemplate, renderTemplate, TemplateProblem, type TemplatePart } from './liquid.js';
import { notificationTemplates } from './models.js';
import type { ShopObject } from './objects.js';

type Deps = Pick<Platform, 'config' | 'db' | 'jobs' | 'clock' | 'log'>;

export const isNotificationKind = (kind: string): kind is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(kind);

/** A rendered notification: its subject, text part and whole HTML email. */
export type RenderedNotification = { subject: string; text: string; html: string };

/** The store as its emails show it: its name, contact address, shop address, currency, and its live theme's colours. */
export type StoreLook = { shop: ShopObject; colors: EmailColors; adminBase: string };

/** The shop's address as a browser reaches it: the platform's public scheme and port on `<subdomain>.<STOREFRONT_BASE_DOMAIN>`. */
export function shopBaseUrl(platform: Pick<Platform, 'config'>, subdomain: string): string {
  const base = new URL(platform.config.http.publicBaseUrl);
  return `${base.protocol}//${subdomain}.${platform.config.storefront.baseDomain}${base.port ? `:${base.port}` : ''}`;
}

export async function storeLook(platform: Platform | Deps, store: ScopedStore): Promise<StoreLook> {
  const theme = await getLiveTheme(platform as Platform, store).catch(() => null);
  const current = theme?.settings_data?.current;
  const settings = current && typeof current === 'object' ? (current as Record<string, unknown>) : {};
  const accent = hexColor(settings.color_accent) ?? NEUTRAL_COLORS.accent;
  const colors: EmailColors = {
    accent,
    accent_text: textOn(accent),
    text: hexColor(settings.color_text) ?? NEUTRAL_COLORS.text,
    background: hexColor(settings.color_background) ?? NEUTRAL_COLORS.background,
  };
  const logo = typeof settings.logo === 'string' && /^https:\/\//.test(settings.logo) ? settings.logo : null;
  return {
    shop: { name: store.name, email: store.email_sender?.email ?? null, url: shopBaseUrl(platform, store.subdomain), currency: store.currency, logo_url: logo },
    colors,
    adminBase: `${platform.config.http.publicBaseUrl}/admin/stores/${store.id}`,
  };
}

/** The store's template for a kind: its own, or the default. */
export async function storeTemplate(
  platform: Pick<Platform, 'db'>,
  storeId: string,
  kind: NotificationKind,
): Promise<{ template: NotificationTemplate; customized: boolean; updated_at: string | null }> {
  const doc = await notificationTemplates(platform.db).findOne({ store_id: new ObjectId(storeId), kind });
  return doc
    ? { template: { subject: doc.subject, text: doc.text, html: doc.html }, customized: true, updated_at: doc.updated_at.toISOString() }
    : { template: defaultTemplate(kind), customized: false, updated_at: null };
}

/** Render a template's three parts with its objects (the HTML content inside the store's layout). Throws a TemplateProblem with the part. */
export function renderParts(template: NotificationTemplate, look: StoreLook, scope: Record<string, unknown>): RenderedNotification {
  const objects = { ...scope, shop: look.shop, colors: look.colors };
  const part = (name: TemplatePart) => {
    try {
      return renderTemplate(parseTemplate(template[name], name), name, objects);
    } catch (err) {
      if (err instanceof TemplateProblem) throw new TemplateProblem(`${name}: ${err.message}`, err.line);
      throw err;
    }
  };
  const subject = part('subject').replace(/\s+/g, ' ').trim().slice(0, 250);
  return { subject, text: part('text'), html: emailLayout(part('html'), look.shop, look.colors, subject) };
}

/**
 * Render the store's notification; a store's template that fails at send time (past a limit on
 * this data) is logged and the default is sent instead, so the shopper still hears.
 */
export async function renderNotification(
  platform: Platform | Deps,
  store: ScopedStore,
  kind: NotificationKind,
  scope: Record<string, unknown>,
): Promise<RenderedNotification> {
  const [look, { template, customized }] = await Promise.all([storeLook(platform, store), storeTemplate(platform, store.id, kind)]);
  try {
    return renderParts(template, look, scope);
  } catch (err) {
    if (!customized || !(err instanceof TemplateProblem)) throw err;
    platform.log.warn({ event: 'notifications.template_failed', store_id: store.id, kind, err: err.message });
    return renderParts(defaultTemplate(kind), look, scope);
  }
}

/** Render and send one notification, once per `dedupeKey`. */
export async function sendNotification(
  platform: Platform | Deps,
  store: ScopedStore,
  kind: NotificationKind,
  to: string,
  scope: Record<string, unknown>,
  dedupeKey?: string,
): Promise<string> {
  const rendered = await renderNotification(platform, store, kind, scope);
  const audience = NOTIFICATION_INFO.get(kind)!.audience;
  return sendMessage(platform, {
    kind,
    to,
    from: audience === 'customer' ? store.email_sender : null,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    store_id: store.id,
    ...(dedupeKey ? { dedupe_key: dedupeKey } : {}),
  });
}

/** Where a store's notifications to its merchant go: the owner's sign-in email. */
export async function merchantAddress(platform: Pick<Platform, 'db'>, storeId: string): Promise<string | null> {
  const owner = await findStoreOwnerId(platform, storeId);
  return owner ? merchantEmail(platform, owner) : null;
}

/** Check a template's three parts parse within the bounds: a 400 naming each part, its error and line. */
export function checkTemplate(template: NotificationTemplate): void {
  const issues = (['subject', 'text', 'html'] as const).flatMap((part) => {
    try {
      parseTemplate(template[part], part);
      return [];
    } catch (err) {
      if (!(err instanceof TemplateProblem)) throw err;
      return [{ path: part, message: err.line ? `line ${err.line}: ${err.message}` : err.message }];
    }
  });
  if (issues.length) throw invalidInput(issues, 'invalid_template', 'The template has invalid Liquid');
}

export const kindOrNotFound = (kind: string): NotificationKind => {
  if (!isNotificationKind(kind)) throw notFound('Notification');
  return kind;
};

/** A customer's account email (activation, invite, password reset) from the store's template: the token, how long it works, and how to use it. */
export function sendAccountNotification(
  platform: Platform,
  store: ScopedStore,
  kind: Extract<NotificationKind, 'account_activation' | 'account_invite' | 'password_reset'>,
  to: string,
  account: { token: string; valid_for: string; instructions: string },
): Promise<string> {
  // Activation and invite open the account on the shop's own page (docs/shop.md, /account/activate); a reset has no shop page yet.
  const base = shopBaseUrl(platform, store.subdomain);
  const url = kind === 'password_reset' ? `${base}/account` : `${base}/account/activate?token=${encodeURIComponent(account.token)}`;
  return sendNotification(platform, store, kind, to, { customer: { email: to }, account: { ...account, url } });
}
