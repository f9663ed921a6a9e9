import type { Db, ObjectId } from 'mongodb';
import { countsBy, type IndexDeclaration } from '../db.js';

export const OUTBOUND_MESSAGES = 'outbound_messages';

/**
 * A message to a merchant, a partner or a storefront customer (sign-in code, password reset, a
 * sign-up for an email that already has an account, a customer's account activation or invite, a
 * failing or disabled webhook subscription). The body may hold a secret, so it is stored encrypted and cleared once an
 * SMTP server or the relay has accepted it. The document is the source of truth for delivery; the Agenda job only
 * drives it.
 */
export type MessageKind =
  | 'signin_code'
  | 'password_reset'
  | 'account_exists'
  | 'account_activation'
  | 'account_invite'
  /** A webhook subscription started failing, or was disabled (docs/webhooks.md, Subscription health): to its merchant or its app's partner. */
  | 'webhook_subscription_failing'
  | 'webhook_subscription_disabled'
  /** A store's notifications to its customer about an order (docs/notifications.md). */
  | 'order_confirmation'
  | 'shipping_confirmation'
  | 'order_refund'
  | 'order_cancelled'
  /** A store's notification to its merchant: a new order. */
  | 'merchant_new_order';
export type MessageSender = { name: string; email: string };
export type MessageStatus = 'queued' | 'delivered' | 'failed';

export type MessageDocument = {
  _id: ObjectId;
  kind: MessageKind;
  to: string;
  /** Who it comes from (a store's sender); null, or absent on messages of before it existed: the relay's own. */
  from?: MessageSender | null;
  subject: string;
  body_encrypted: string | null;
  /** The HTML part, encrypted like the body and cleared with it; null or absent: text only. */
  html_encrypted?: string | null;
  /** The store a store's message is for; null or absent for the platform's own. */
  store_id?: ObjectId | null;
  /**
   * One message per key, ever (unique): a caller that may run twice for one fact (an order's
   * confirmation when its event is handled twice) names it (`order_confirmation:<order id>`), and
   * the second send finds the first. Without one it is `message:<id>`. Absent on messages of before it existed.
   */
  dedupe_key?: string;
  status: MessageStatus;
  transport: 'outbox' | 'relay' | 'smtp' | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  /** The delivery's lease (src/work/lease.ts): the process sending it and until when; null when nobody is. */
  lease_until: Date | null;
  lease_owner: string | null;
  created_at: Date;
  delivered_at: Date | null;
  expires_at: Date;
};

export const messageIndexes: IndexDeclaration[] = [
  {
    collection: OUTBOUND_MESSAGES,
    indexes: [
      { key: { to: 1, _id: -1 }, name: 'to_id' },
      { key: { status: 1, next_attempt_at: 1 }, name: 'status_next_attempt_at' },
      { key: { expires_at: 1 }, name: 'expires_at' },
      { key: { dedupe_key: 1 }, name: 'dedupe_key_unique', unique: true },
    ],
  },
];

export const messages = (db: Db) => db.collection<MessageDocument>(OUTBOUND_MESSAGES);

/** The messages part of the operators' overview (docs/operations.md): messages not yet delivered, and how late the oldest due one is (the `status_next_attempt_at` index). */
export async function messagesOverview(db: Db, now: Date) {
  const coll = messages(db);
  const [counts, oldest] = await Promise.all([
    countsBy(coll, { queued: { status: 'queued' }, due: { status: 'queued', next_attempt_at: { $lte: now } }, failed: { status: 'failed' } }),
    coll.findOne({ status: 'queued', next_attempt_at: { $lte: now } }, { sort: { next_attempt_at: 1 }, projection: { next_attempt_at: 1 } }),
  ]);
  const dueAt = oldest?.next_attempt_at ?? null;
  return { outbound_messages: { ...counts, oldest_due_at: dueAt?.toISOString() ?? null } };
}
