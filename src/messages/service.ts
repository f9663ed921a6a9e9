import { ObjectId } from 'mongodb';
import type { Platform } from '../platform.js';
import { decryptSecret, encryptSecret } from '../secrets/index.js';
import { enqueueMessageDelivery, scheduleMessageDelivery } from './jobs.js';
import { messages, type MessageDocument, type MessageKind } from './store.js';

const PURPOSE = 'messages.body';
/** Messages (and their encrypted bodies) are kept this long, then swept. */
const RETENTION_MS = 24 * 60 * 60 * 1000;
const LEASE_MS = 60 * 1000;
const MAX_ATTEMPTS = 6;
const RELAY_TIMEOUT_MS = 10_000;
/** A queued message whose next attempt is this overdue has lost its job (crash between write and enqueue). */
const STRANDED_AFTER_MS = 2 * 60 * 1000;

export type OutgoingMessage = { kind: MessageKind; to: string; subject: string; text: string };

/** Record a message for a sender and queue its delivery. Returns the message id. */
export async function sendMessage(platform: Platform, message: OutgoingMessage): Promise<string> {
  const now = platform.clock.now();
  const doc: MessageDocument = {
    _id: new ObjectId(),
    kind: message.kind,
    to: message.to,
    subject: message.subject,
    body_encrypted: encryptSecret(platform.config.secretsKeys, PURPOSE, message.text),
    status: 'queued',
    transport: null,
    attempts: 0,
    last_error: null,
    next_attempt_at: now,
    lease_until: null,
    created_at: now,
    delivered_at: null,
    expires_at: new Date(now.getTime() + RETENTION_MS),
  };
  await messages(platform.db).insertOne(doc);
  await enqueueMessageDelivery(platform, doc._id.toHexString());
  return doc._id.toHexString();
}

export type DeliveryOutcome = 'delivered' | 'retry_scheduled' | 'failed' | 'skipped';

/**
 * Deliver one message: through the relay when one is configured (the body is then cleared),
 * otherwise into the development outbox, where it stays readable until it expires.
 * Safe to run twice: a lease on the document makes concurrent runs skip.
 */
export async function deliverMessage(platform: Platform, messageId: string): Promise<DeliveryOutcome> {
  const now = platform.clock.now();
  const claimed = await messages(platform.db).findOneAndUpdate(
    { _id: new ObjectId(messageId), status: 'queued', $or: [{ lease_until: null }, { lease_until: { $lte: now } }] },
    { $set: { lease_until: new Date(now.getTime() + LEASE_MS) }, $inc: { attempts: 1 } },
    { returnDocument: 'after' },
  );
  if (!claimed) return 'skipped';

  const relay = platform.config.messageRelay;
  if (!relay) {
    await messages(platform.db).updateOne(
      { _id: claimed._id },
      { $set: { status: 'delivered', transport: 'outbox', delivered_at: platform.clock.now(), lease_until: null, next_attempt_at: null } },
    );
    return 'delivered';
  }

  try {
    const text = claimed.body_encrypted ? decryptSecret(platform.config.secretsKeys, PURPOSE, claimed.body_encrypted) : '';
    const response = await fetch(relay.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${relay.token}`, 'Idempotency-Key': messageId },
      body: JSON.stringify({ message_id: messageId, kind: claimed.kind, to: claimed.to, subject: claimed.subject, text }),
      redirect: 'manual',
      signal: AbortSignal.timeout(RELAY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`message relay answered HTTP ${response.status}`);
    await messages(platform.db).updateOne(
      { _id: claimed._id },
      { $set: { status: 'delivered', transport: 'relay', body_encrypted: null, delivered_at: platform.clock.now(), lease_until: null, next_attempt_at: null, last_error: null } },
    );
    return 'delivered';
  } catch (err) {
    const error = (err as Error).message.slice(0, 500);
    if (claimed.attempts >= MAX_ATTEMPTS) {
      await messages(platform.db).updateOne(
        { _id: claimed._id },
        { $set: { status: 'failed', body_encrypted: null, last_error: error, lease_until: null, next_attempt_at: null } },
      );
      return 'failed';
    }
    const next = new Date(platform.clock.now().getTime() + Math.min(30_000 * 2 ** (claimed.attempts - 1), 30 * 60_000));
    await messages(platform.db).updateOne({ _id: claimed._id }, { $set: { last_error: error, lease_until: null, next_attempt_at: next } });
    await scheduleMessageDelivery(platform, messageId, next);
    return 'retry_scheduled';
  }
}

/** Re-enqueue queued messages whose job was lost (a crash between the write and the enqueue). */
export async function redispatchStrandedMessages(platform: Platform): Promise<number> {
  const overdue = new Date(platform.clock.now().getTime() - STRANDED_AFTER_MS);
  const stranded = await messages(platform.db)
    .find({ status: 'queued', next_attempt_at: { $lte: overdue } }, { projection: { _id: 1 } })
    .limit(500)
    .toArray();
  for (const { _id } of stranded) await enqueueMessageDelivery(platform, _id.toHexString());
  return stranded.length;
}

export async function sweepExpiredMessages(platform: Pick<Platform, 'db' | 'clock'>): Promise<number> {
  const { deletedCount } = await messages(platform.db).deleteMany({ expires_at: { $lte: platform.clock.now() } });
  return deletedCount;
}

export type OutboxEntry = { id: string; kind: MessageKind; to: string; subject: string; text: string | null; status: string; created_at: string };

/**
 * The development outbox: messages to one address, newest first, decrypted. Never served
 * over HTTP; refused outside development and test.
 */
export async function readOutbox(platform: Platform, to: string): Promise<OutboxEntry[]> {
  if (platform.config.env !== 'development' && platform.config.env !== 'test') {
    throw new Error('the outbox is readable only in development and test');
  }
  const docs = await messages(platform.db).find({ to: to.trim().toLowerCase() }).sort({ _id: -1 }).limit(50).toArray();
  return docs.map((d) => ({
    id: d._id.toHexString(),
    kind: d.kind,
    to: d.to,
    subject: d.subject,
    text: d.body_encrypted ? decryptSecret(platform.config.secretsKeys, PURPOSE, d.body_encrypted) : null,
    status: d.status,
    created_at: d.created_at.toISOString(),
  }));
}
