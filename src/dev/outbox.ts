import { loadConfigOrExit } from '../config.js';
import { latestOutbox, readOutbox, type OutboxEntry } from '../messages/index.js';
import { openPlatformOrExit } from '../process.js';

/**
 * `npm run outbox [-- <email> [--html]]` (`node dist/src/dev/outbox.js`): the development
 * outbox (docs/mail.md). Without an address, the latest messages to anyone: when, to whom, what
 * kind, the subject. With one, the messages to that address in full: the text, and the HTML
 * part's size (its HTML with --html). Refused outside development and test; the API never
 * returns them. Uses the same MONGODB_URL as the platform; unset, `npm start`'s embedded
 * database (mongodb://127.0.0.1:<LOCALDB_PORT, 27018>/), so it works with nothing configured.
 */
const args = process.argv.slice(2);
const withHtml = args.includes('--html');
const email = args.find((a) => !a.startsWith('--'));
process.env.MONGODB_URL ||= `mongodb://127.0.0.1:${process.env.LOCALDB_PORT || 27018}/`;
const config = loadConfigOrExit();
const { platform, close } = await openPlatformOrExit(config, 'outbox');
try {
  if (email) printMessages(email, await readOutbox(platform, email));
  else {
    const latest = await latestOutbox(platform);
    if (latest.length === 0) console.log('no messages yet');
    for (const m of latest)
      console.log(`${m.created_at}  ${m.to}  ${m.kind}  ${JSON.stringify(m.subject)}${m.status === 'delivered' ? '' : `  (${m.status})`}`);
    if (latest.length > 0) console.log('\nnpm run outbox -- <address> prints the messages to one address in full.');
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await close();
}

function printMessages(to: string, messages: OutboxEntry[]): void {
  if (messages.length === 0) console.log(`no messages to ${to}`);
  for (const m of messages) {
    const text = m.text ?? `(body forgotten once sent through ${m.transport ?? 'the transport'})`;
    const html =
      m.html === null ? '' : withHtml ? `\n--- HTML part:\n${m.html}\n` : `\n(and an HTML part of ${Buffer.byteLength(m.html)} bytes: --html prints it)\n`;
    console.log(`--- ${m.created_at} ${m.kind} (${m.status})\nSubject: ${m.subject}\n\n${text}\n${html}`);
  }
}
