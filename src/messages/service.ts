import { ObjectId, type MatchKeysAndValues } from 'mongodb';
import { z } from 'zod';
import { isLocalEnv } from '../config.js';
import { mailTransport } from '../mail-config.js';
import { isDuplicateKeyError } from '../db.js';
import { IdString } from '../ids.js';
import { defineJob } from '../job.js';
import { post, type FailureTexts } from '../outbound/index.js';
import type { Platform } from '../platform.js';
import { decryptSecret, encryptSecret } from '../secrets/index.js';
import { backoff, claimLease, findStranded, settleLease, type Lease } from '../work/lease.js';
import { messages, type MessageDocument, type MessageKind, type MessageSender } from './models.js';
import { sendBySmtp, type SmtpOutcome } from './smtp.js';

const PURPOSE = 'messages.body';
/** Messages (and their encrypted bodies) are kept this long, then swept. */
const RETENTION_MS = 24 * 60 * 60 * 1000;
const MAX_ATTEMPTS = 6;
/** Retries wait min(MESSAGES_RETRY_BASE_MS (30 s) × 2^(n-1), 30 min) after failed attempt n. */
const RETRY_CAP_MS = 30 * 60_000;
/** Bounds connecting and the whole exchange alike. */
const RELAY_TIMEOUT_MS = 10_000;
/** A queued message whose next attempt is this overdue has lost its job (crash between write and enqueue). */
const STRANDED_AFTER_MS = 2 * 60 * 1000;

/**
 * `from`: who a store's email to its customer comes from (the store's `email_sender`); absent or
 * null: the transport's own sender. `html`: the HTML part beside the text one. `store_id`: the
 * store a store's message is for. `dedupe_key`: one message per key, ever (see MessageDocument).
 */
export type OutgoingMessage = {
  kind: MessageKind;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  from?: MessageSender | null;
  store_id?: string | null;
  dedupe_key?: string | null;
};

/**
 * Record a message for a sender and queue its delivery. Returns the message id; with a
 * `dedupe_key` a message already has, that message's id, and nothing new is sent (a queued one
 * whose job was lost is picked up by `redispatchStrandedMessages`).
 */
export async function sendMessage(platform: Pick<Platform, 'config' | 'db' | 'jobs' | 'clock'>, message: OutgoingMessage): Promise<string> {
  const now = platform.clock.now();
  const _id = new ObjectId();
  const doc: MessageDocument = {
    _id,
    kind: message.kind,
    to: message.to,
    subject: message.subject,
    from: message.from ?? null,
    store_id: message.store_id ? new ObjectId(message.store_id) : null,
    dedupe_key: message.dedupe_key ?? `message:${_id.toHexString()}`,
    body_encrypted: encryptSecret(platform.config.secretsKeys, PURPOSE, message.text),
    html_encrypted: message.html ? encryptSecret(platform.config.secretsKeys, PURPOSE, message.html) : null,
    status: 'queued',
    transport: null,
    attempts: 0,
    last_error: null,
    next_attempt_at: now,
    lease_until: null,
    lease_owner: null,
    created_at: now,
    delivered_at: null,
    expires_at: new Date(now.getTime() + RETENTION_MS),
  };
  try {
    await messages(platform.db).insertOne(doc);
  } catch (err) {
    if (!message.dedupe_key || !isDuplicateKeyError(err)) throw err;
    const existing = await messages(platform.db).findOne({ dedupe_key: message.dedupe_key }, { projection: { _id: 1 } });
    if (existing) return existing._id.toHexString();
    throw err;
  }
  await enqueueMessageDelivery(platform, doc._id.toHexString());
  return doc._id.toHexString();
}

export type DeliveryOutcome = 'delivered' | 'retry_scheduled' | 'failed' | 'skipped';

/**
 * How a failed relay request reads in `last_error`: the texts the relay gave when it was called
 * with fetch (a timeout, a network error), kept so stored errors read as before.
 */
const RELAY_TEXTS: FailureTexts = {
  timedOut: () => 'The operation was aborted due to timeout',
  notConnected: () => 'The operation was aborted due to timeout',
  failed: () => 'fetch failed',
  answered: (status) => `message relay answered HTTP ${status}`,
};

/**
 * Deliver one message (docs/mail.md): over SMTP when SMTP_URL is set, else through the relay,
 * else into the development outbox, where it stays readable until it expires. Once sent, the
 * body (and HTML) is cleared. A failure is retried with backoff up to MAX_ATTEMPTS, except an
 * SMTP server's permanent (5xx) answer to the message, which fails it at once.
 * Safe to run twice: a lease on the document (src/work/lease.ts, held by this process) makes
 * concurrent runs skip, and what a run records is conditional on its lease ('skipped' when it
 * was lost meanwhile: the run that took it over finishes the message).
 */
export async function deliverMessage(platform: Platform, messageId: string): Promise<DeliveryOutcome> {
  const lease: Lease = { owner: platform.process.id, ms: platform.config.mail.leaseMs };
  const claimed = await claimLease(
    messages(platform.db),
    lease,
    platform.clock.now(),
    { _id: new ObjectId(messageId), status: 'queued' },
    { inc: { attempts: 1 } },
  );
  if (!claimed) return 'skipped';
  const settle = async (set: MatchKeysAndValues<MessageDocument>, outcome: DeliveryOutcome) =>
    (await settleLease(messages(platform.db), claimed, lease.owner, { $set: set })) ? outcome : 'skipped';

  const transport = mailTransport(platform.config);
  if (transport === 'outbox')
    return settle({ status: 'delivered', transport: 'outbox', delivered_at: platform.clock.now(), next_attempt_at: null }, 'delivered');

  let sent: SmtpOutcome;
  try {
    const text = claimed.body_encrypted ? decryptSecret(platform.config.secretsKeys, PURPOSE, claimed.body_encrypted) : '';
    const html = claimed.html_encrypted ? decryptSecret(platform.config.secretsKeys, PURPOSE, claimed.html_encrypted) : null;
    sent =
      transport === 'smtp'
        ? await sendBySmtp(platform.config, lease.ms, {
            id: messageId,
            to: claimed.to,
            subject: claimed.subject,
            text,
            html,
            from: claimed.from ?? null,
            created_at: claimed.created_at,
          })
        : { error: await sendByRelay(platform.config.messageRelay!, messageId, claimed, text, html), permanent: false };
  } catch (err) {
    sent = { error: (err as Error).message, permanent: false };
  }
  const forgotten = { body_encrypted: null, html_encrypted: null };
  if (sent.error === null) {
    return settle({ status: 'delivered', transport, ...forgotten, delivered_at: platform.clock.now(), next_attempt_at: null, last_error: null }, 'delivered');
  }
  const error = sent.error.slice(0, 500);
  if (sent.permanent || claimed.attempts >= MAX_ATTEMPTS) {
    return settle({ status: 'failed', ...forgotten, last_error: error, next_attempt_at: null }, 'failed');
  }
  const next = new Date(platform.clock.now().getTime() + backoff(platform.config.mail.retryBaseMs, claimed.attempts - 1, RETRY_CAP_MS));
  if ((await settle({ last_error: error, next_attempt_at: next }, 'retry_scheduled')) === 'skipped') return 'skipped';
  await enqueueMessageDelivery(platform, messageId, next);
  return 'retry_scheduled';
}

/** POST the message to the HTTP relay; resolves to the failure's text, or null once the relay took it. */
async function sendByRelay(
  relay: { url: string; token: string },
  messageId: string,
  claimed: MessageDocument,
  text: string,
  html: string | null,
): Promise<string | null> {
  const result = await post(new URL(relay.url), {
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${relay.token}`, 'Idempotency-Key': messageId },
    body: JSON.stringify({
      message_id: messageId,
      kind: claimed.kind,
      to: claimed.to,
      ...(claimed.from ? { from: claimed.from } : {}),
      subject: claimed.subject,
      text,
      ...(html !== null ? { html } : {}),
    }),
    connectMs: RELAY_TIMEOUT_MS,
    totalMs: RELAY_TIMEOUT_MS,
    texts: RELAY_TEXTS,
  });
  return result.error;
}

/**
 * Delivers one message (`deliverMessage`). It goes out from the webhooks group, the process that
 * talks to the outside world. Declared beside its work, which schedules it again for a retry.
 */
export const DeliverMessage = defineJob({
  name: 'messages.deliver',
  group: 'webhooks',
  concurrency: 10,
  payload: z.object({ message_id: IdString('message') }),
  run: async (platform, { message_id }) => ({ delivery: await deliverMessage(platform, message_id) }),
});

function enqueueMessageDelivery(platform: Pick<Platform, 'jobs'>, messageId: string, at?: Date): Promise<string> {
  return platform.jobs.enqueue(DeliverMessage, { message_id: messageId }, at ? { at } : {});
}

/** Re-enqueue queued messages whose job was lost (a crash between the write and the enqueue). */
export async function redispatchStrandedMessages(platform: Platform): Promise<number> {
  const overdue = new Date(platform.clock.now().getTime() - STRANDED_AFTER_MS);
  const stranded = await findStranded(messages(platform.db), { status: 'queued' }, overdue, 500);
  for (const id of stranded) await enqueueMessageDelivery(platform, id.toHexString());
  return stranded.length;
}

export async function sweepExpiredMessages(platform: Pick<Platform, 'db' | 'clock'>): Promise<number> {
  const { deletedCount } = await messages(platform.db).deleteMany({ expires_at: { $lte: platform.clock.now() } });
  return deletedCount;
}

export type OutboxEntry = {
  id: string;
  kind: MessageKind;
  to: string;
  subject: string;
  text: string | null;
  html: string | null;
  status: string;
  /** Where it went ('outbox', 'smtp', 'relay'); null while not sent. */
  transport: string | null;
  created_at: string;
};

const refuseOutsideLocal = (platform: Platform) => {
  if (!isLocalEnv(platform.config)) throw new Error('the outbox is readable only in development and test');
};

/** The development outbox's latest messages, to anyone, newest first: who, what and when, without their bodies. Refused outside development and test. */
export async function latestOutbox(platform: Platform, limit = 20): Promise<Omit<OutboxEntry, 'text' | 'html'>[]> {
  refuseOutsideLocal(platform);
  const docs = await messages(platform.db)
    .find({}, { projection: { body_encrypted: 0, html_encrypted: 0 } })
    .sort({ _id: -1 })
    .limit(limit)
    .toArray();
  return docs.map((d) => ({
    id: d._id.toHexString(),
    kind: d.kind,
    to: d.to,
    subject: d.subject,
    status: d.status,
    transport: d.transport,
    created_at: d.created_at.toISOString(),
  }));
}

/**
 * The development outbox: messages to one address, newest first, decrypted. Never served
 * over HTTP; refused outside development and test.
 */
export async function readOutbox(platform: Platform, to: string): Promise<OutboxEntry[]> {
  refuseOutsideLocal(platform);
  const docs = await messages(platform.db).find({ to: to.trim().toLowerCase() }).sort({ _id: -1 }).limit(50).toArray();
  return docs.map((d) => ({
    id: d._id.toHexString(),
    kind: d.kind,
    to: d.to,
    subject: d.subject,
    text: d.body_encrypted ? decryptSecret(platform.config.secretsKeys, PURPOSE, d.body_encrypted) : null,
    html: d.html_encrypted ? decryptSecret(platform.config.secretsKeys, PURPOSE, d.html_encrypted) : null,
    status: d.status,
    transport: d.transport,
    created_at: d.created_at.toISOString(),
  }));
}
