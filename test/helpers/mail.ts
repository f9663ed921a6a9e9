import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { until } from './waiting.js';

/**
 * The tests' SMTP server (test/run.ts starts it: aiosmtpd with tools/smtp/server.py) as a test
 * reads it: messages kept in a Maildir per recipient, so test files sharing the server read only
 * the mail of their own addresses. An address's local part can tell the server how to answer
 * (tools/smtp/server.py): `tempfail<N>`, `reject`, `hold<seconds>`.
 */
export function testSmtp(): { url: string; maildir: string } {
  const url = process.env.EMPORIUM_TEST_SMTP_URL;
  const maildir = process.env.EMPORIUM_TEST_SMTP_MAILDIR;
  if (!url || !maildir) throw new Error('EMPORIUM_TEST_SMTP_URL and EMPORIUM_TEST_SMTP_MAILDIR are not set: run the tests with node dist/test/run.js');
  return { url, maildir };
}

/** The environment that sends a process's mail to the tests' SMTP server. */
export const smtpEnv = (): Record<string, string> => ({ SMTP_URL: testSmtp().url, MAIL_FROM: 'Emporium <no-reply@emporium.test>' });

/** A fresh address of this run, with the server's rule words in it: `mailbox('invite', 'tempfail1')` → `invite.tempfail1.x3k9…@example.com`. */
export const mailbox = (label: string, ...rules: string[]): string => `${[label, ...rules, randomBytes(5).toString('hex')].join('.')}@example.com`;

/** The address's folder, named as the server names it. */
const folderOf = (address: string) => join(testSmtp().maildir, address.toLowerCase().replace(/[^a-z0-9._+@-]/g, '_'));

/** What the server did with the address's mail, a line each: `rcpt 451`, `rcpt 550`, `data held`, `data dropped`, `data 250 <Message-ID>`. */
export function mailEvents(address: string): string[] {
  const file = join(folderOf(address), 'events');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

export type ReceivedMail = ParsedMail & { raw: string };

/** The messages the server accepted for the address, oldest first, parsed (mailparser). */
export async function receivedMail(address: string): Promise<ReceivedMail[]> {
  const folder = join(folderOf(address), 'new');
  if (!existsSync(folder)) return [];
  // Maildir names begin with the delivery's time in seconds, then a counter: their order is the order received.
  const files = readdirSync(folder).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return Promise.all(
    files.map(async (f) => {
      const raw = readFileSync(join(folder, f), 'utf8');
      return Object.assign(await simpleParser(raw), { raw });
    }),
  );
}

/** Wait until the server has accepted `count` messages for the address (a minute at most), and read them. */
export async function waitForMail(address: string, count = 1, timeoutMs = 60_000): Promise<ReceivedMail[]> {
  await until(`${count} message(s) to ${address} at the SMTP server`, async () => (await receivedMail(address)).length >= count, timeoutMs);
  return receivedMail(address);
}
