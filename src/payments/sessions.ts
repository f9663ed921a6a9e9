import { randomBytes } from 'node:crypto';
import { ObjectId, type Collection, type Db, type Filter, type OptionalUnlessRequiredId, type UpdateFilter } from 'mongodb';
import { systemClock } from '../clock.js';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError } from '../errors.js';
import { carrying, type PendingEvent } from '../events/index.js';
import type { Platform } from '../platform.js';
import { recordEnforcement, type PlatformEnforcement } from '../security/index.js';
import { claimLease, jitter, leaseFields, releaseLeases, settlement, waitForHolder, type Lease } from '../work/lease.js';
import { paymentSignature, type Gateway } from './gateways.js';

/**
 * Payment sessions (docs/payments.md, Payment sessions): the one model of paying through a
 * provider, Razorpay's shape. A session is a provider-side order for an amount, made once per
 * thing paid for (a storefront order and provider, a store's purchase of a theme), then the
 * provider's signed payment of it, recorded once. The storefront's payment orders and the theme
 * purchases are both sessions; each keeps its own collection and public fields (`kind`), and
 * says what the payment does once recorded (an order marked paid, a theme unlocked).
 */

/** The fields every session document has, in whichever collection. */
export type PaymentSessionDocument = {
  _id: ObjectId;
  /** The provider's order id; `pending:<_id>` while the provider is being asked (unique either way). */
  provider_order_id: string;
  provider_payment_id: string | null;
  status: string;
  /** The request asking the provider holds these while the session is being opened (src/work/lease.ts); null otherwise (absent on older records). */
  lease_until: Date | null;
  lease_owner: string | null;
};

/** The fields the session model sets itself when it opens one. */
type SessionFields = keyof PaymentSessionDocument;

/** A kind of session: its collection, and the words its documents use for the states every session goes through. */
export type PaymentSessionKind<D extends PaymentSessionDocument> = {
  collection: (db: Db) => Collection<D>;
  /** While the provider is asked for its order (never answered to a client). */
  creating: D['status'];
  /** The provider order is made: awaiting its payment. */
  open: D['status'];
  paid: D['status'];
  /** The field recording when the payment was recorded (null before). */
  paidAt: Exclude<keyof D, SessionFields> & string;
};

/** How long a request may take to get the provider's order before another may take over. */
const PROVIDER_CALL_MS = 30_000;
/** How long a request waits for the provider order another request is getting, before 409 payment_order_in_progress. */
const WAIT_FOR_PROVIDER_MS = 10_000;
const providerLease = (platform: Platform): Lease => ({ owner: platform.process.id, ms: PROVIDER_CALL_MS });

export type OpenSessionInput<D extends PaymentSessionDocument> = {
  /** What identifies the one session of the thing paid for (a unique index of the collection covers it). */
  key: Filter<D>;
  /** The rest of a new session's document (the key's fields among them; the paid-at field null). */
  fields: Omit<D, '_id' | SessionFields>;
  gateway: Gateway;
  credentials: Record<string, string>;
  /** The provider order: amount in minor units, currency, and the receipt the provider is told (default: the session's id). */
  charge: { amount: number; currency: string; receipt?: string };
};

/**
 * The session of a thing paid for: the one made before (`created: false`, in whatever state), or
 * a new one with its provider order (`created: true`). The provider is asked once: the session is
 * inserted first (`creating`, leased) under its unique key, so of concurrent requests one asks and
 * the others wait for its answer (409 payment_order_in_progress after 10 s); a process that
 * stopped while asking lets another take the session over when its lease runs out; a provider that
 * fails gives it back for the next request.
 */
export async function openPaymentSession<D extends PaymentSessionDocument>(
  platform: Platform,
  kind: PaymentSessionKind<D>,
  input: OpenSessionInput<D>,
): Promise<{ doc: D; created: boolean }> {
  return waitForHolder<{ doc: D; created: boolean }>(
    async () => {
      const claim = await claimSession(platform, kind, input);
      if (claim.kind === 'made') return { done: { doc: claim.doc, created: false } };
      if (claim.kind === 'busy') return 'held';
      const made = await askProvider(platform, kind, input, claim.doc);
      return made ? { done: { doc: made, created: true } } : 'again';
    },
    // By the wall clock: the platform's may be a test's, moved or standing still.
    {
      clock: systemClock,
      deadline: new Date(Date.now() + WAIT_FOR_PROVIDER_MS),
      pauseMs: jitter(20, 50),
      busy: () => new PlatformError('conflict', 'payment_order_in_progress', 'Another request is getting this payment order from the provider; retry shortly'),
    },
  );
}

type SessionClaim<D> = { kind: 'made' | 'claimed'; doc: D } | { kind: 'busy' };

/** The session, made (`made`), or ours to make (`claimed`: inserted now, or one whose process stopped, taken over), or being made by another request (`busy`). */
async function claimSession<D extends PaymentSessionDocument>(
  platform: Platform,
  kind: PaymentSessionKind<D>,
  input: OpenSessionInput<D>,
): Promise<SessionClaim<D>> {
  const sessions = kind.collection(platform.db);
  const existing = (await sessions.findOne(input.key)) as D | null;
  const now = platform.clock.now();
  if (existing) {
    if (existing.status !== kind.creating) return { kind: 'made', doc: existing };
    const taken = (await claimLease(sessions, providerLease(platform), now, { _id: existing._id, status: kind.creating } as Filter<D>)) as D | null;
    return taken ? { kind: 'claimed', doc: taken } : { kind: 'busy' };
  }
  const _id = new ObjectId();
  const doc = {
    _id,
    ...input.fields,
    provider_order_id: `pending:${_id.toHexString()}`,
    provider_payment_id: null,
    status: kind.creating,
    ...leaseFields(providerLease(platform), now),
  } as D;
  try {
    await sessions.insertOne(doc as OptionalUnlessRequiredId<D>);
    return { kind: 'claimed', doc };
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    return { kind: 'busy' };
  }
}

/** Ask the provider for the order and record its id on the session held. Null when the lease was lost meanwhile (another request took over and records its own). */
async function askProvider<D extends PaymentSessionDocument>(
  platform: Platform,
  kind: PaymentSessionKind<D>,
  input: OpenSessionInput<D>,
  held: D,
): Promise<D | null> {
  const sessions = kind.collection(platform.db);
  const owner = platform.process.id;
  let made: { provider_order_id: string };
  try {
    made = await input.gateway.createOrder(input.credentials, { ...input.charge, receipt: input.charge.receipt ?? held._id.toHexString() });
  } catch (err) {
    await releaseLeases(sessions, [held], owner).catch(() => {});
    throw err;
  }
  const done = settlement<D>(
    held,
    owner,
    { $set: { provider_order_id: made.provider_order_id, status: kind.open } } as UpdateFilter<D>,
    {
      status: kind.creating,
    } as Filter<D>,
  );
  return (await sessions.findOneAndUpdate(done.filter, done.update, { returnDocument: 'after' })) as D | null;
}

/** A filter for sessions whose provider order is made (the only ones a client is answered about or may pay). */
export const madeSessions = <D extends PaymentSessionDocument>(kind: PaymentSessionKind<D>, filter: Filter<D>): Filter<D> =>
  ({ ...filter, status: { $ne: kind.creating } }) as Filter<D>;

/**
 * The provider's signature of a payment, checked by the caller against its key secret(s): refused
 * when it does not verify (nothing changes), and the failure recorded for operators with what it
 * was about (docs/operations.md, Security enforcement).
 */
export function requireSignedPayment(platform: Platform, verified: boolean, about: PlatformEnforcement['subject']): void {
  if (verified) return;
  recordEnforcement(platform, {
    kind: 'payment_signature_failed',
    subject: about,
    reason: 'A payment was presented with a signature that does not verify: refused',
  });
  throw new PlatformError('invalid_data', 'invalid_signature', 'The payment signature does not verify');
}

/**
 * Record the signed payment of an open session, once: one conditional write open → paid with the
 * provider's payment id and `at`, carrying `pending` events if any. Resolves whether this call
 * recorded it (false: the session was no longer open, e.g. paid by a concurrent request).
 */
export async function recordSessionPayment<D extends PaymentSessionDocument>(
  platform: Platform,
  kind: PaymentSessionKind<D>,
  session: Pick<D, '_id'>,
  providerPaymentId: string,
  at: Date,
  pending: readonly PendingEvent[] = [],
): Promise<boolean> {
  const update = { $set: { status: kind.paid, provider_payment_id: providerPaymentId, [kind.paidAt]: at } } as UpdateFilter<D>;
  const written = await kind
    .collection(platform.db)
    .updateOne({ _id: session._id, status: kind.open } as Filter<D>, pending.length > 0 ? carrying<D>(update, pending) : update);
  return written.modifiedCount === 1;
}

/**
 * The sandbox's hosted checkout, simulated: a successful payment of a provider order as the
 * sandbox would report it, signed with `keySecret`. For development and test only (the callers
 * see to it): it pays for free.
 */
export function sandboxPayment(keySecret: string, providerOrderId: string): { provider_order_id: string; provider_payment_id: string; signature: string } {
  const paymentId = `sbx_pay_${randomBytes(12).toString('base64url')}`;
  return { provider_order_id: providerOrderId, provider_payment_id: paymentId, signature: paymentSignature(keySecret, providerOrderId, paymentId) };
}
