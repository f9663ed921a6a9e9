import { createTransport, type Transporter } from 'nodemailer';
import type { Config } from '../config.js';
import type { SmtpConfig } from '../mail-config.js';
import type { MessageSender } from './models.js';

/**
 * The SMTP transport (docs/mail.md): one pool per process, made on the first message, of a few
 * connections to `SMTP_URL`, each step bounded, so a stuck server never holds a delivery for
 * long. Retries are the outbox's (the message's lease, backoff, MAX_ATTEMPTS): the pool never
 * sends a message again by itself (`maxRequeues: 0`), since a connection lost after DATA may
 * have delivered it.
 */
const POOL_CONNECTIONS = 3;
/** Connecting, the server's greeting, and any silence of the server within the exchange. */
const STEP_TIMEOUT_MS = 10_000;
/** The whole of one send, queueing in the pool included; and never past 4/5 of the message's lease, so no other worker takes it over while it is sent. */
const SEND_TIMEOUT_MS = 30_000;

let pool: { transport: Transporter; smtp: SmtpConfig } | null = null;

function transportFor(smtp: SmtpConfig): Transporter {
  if (pool?.smtp === smtp) return pool.transport;
  pool?.transport.close();
  const transport = createTransport({
    pool: true,
    maxConnections: POOL_CONNECTIONS,
    maxMessages: 100,
    maxRequeues: 0,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.starttls === 'required',
    ignoreTLS: smtp.starttls === 'off',
    ...(smtp.auth ? { auth: { ...smtp.auth } } : {}),
    connectionTimeout: STEP_TIMEOUT_MS,
    greetingTimeout: STEP_TIMEOUT_MS,
    socketTimeout: STEP_TIMEOUT_MS,
    dnsTimeout: STEP_TIMEOUT_MS,
    logger: false,
  });
  pool = { transport, smtp };
  return transport;
}

/** Close this process's pool, if it made one (the platform closing). */
export async function closeSmtp(): Promise<void> {
  const open = pool;
  pool = null;
  open?.transport.close();
}

export type SmtpMessage = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** A store's sender: its name shows, its address is the Reply-To. */
  from: MessageSender | null;
  created_at: Date;
};

/** How a send ended: `error` null when the server answered 250 to the message; `permanent` when its answer was a 5xx to this message (no retry helps). */
export type SmtpOutcome = { error: string | null; permanent: boolean };

/**
 * Send one message: text, and HTML beside it when there is (multipart/alternative), from
 * MAIL_FROM's address; a store's message shows the store's name and answers go to the store's
 * address. `Message-ID: <message id@MAIL_FROM's domain>` and `Date` (when it was recorded) are
 * the same on every attempt, so a receiver can drop a copy it already has.
 */
export async function sendBySmtp(config: Pick<Config, 'mail'>, leaseMs: number, message: SmtpMessage): Promise<SmtpOutcome> {
  const { smtp, from } = config.mail;
  if (!smtp || !from) throw new Error('SMTP_URL and MAIL_FROM are not set');
  const domain = from.address.slice(from.address.lastIndexOf('@') + 1);
  try {
    await transportFor(smtp).sendMail({
      // Copies: nodemailer writes into the address objects it is given, and the configuration is frozen.
      from: { name: message.from ? message.from.name : from.name, address: from.address },
      ...(message.from ? { replyTo: { name: message.from.name, address: message.from.email } } : {}),
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== null ? { html: message.html } : {}),
      messageId: `<${message.id}@${domain}>`,
      date: message.created_at,
      headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
      signal: AbortSignal.timeout(Math.min(SEND_TIMEOUT_MS, Math.floor(leaseMs * 0.8))),
    });
    return { error: null, permanent: false };
  } catch (err) {
    return smtpFailure(err);
  }
}

/** A 5xx answer to the message itself (its sender, recipient or content) is permanent; any other failure (4xx, a timeout, a lost or refused connection, a login refused) is retried. */
function smtpFailure(err: unknown): SmtpOutcome {
  const e = err as Error & { code?: string; responseCode?: number; response?: string };
  const code = e.responseCode ?? 0;
  const permanent = (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') && code >= 500 && code < 600;
  const answer = e.response ? `SMTP ${e.response}` : `SMTP ${e.code ?? 'error'}: ${e.message}`;
  return { error: answer.replace(/\s+/g, ' ').trim(), permanent };
}
