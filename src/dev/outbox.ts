import { loadConfigOrExit } from '../config.js';
import { readOutbox } from '../messages/index.js';
import { openPlatformOrExit } from '../process.js';

/**
 * `node dist/src/dev/outbox.js <email>`: print the messages sent to an address (sign-in codes,
 * reset tokens) from the development outbox. Refused outside development and test; the API
 * never returns them. Uses the same MONGODB_URL as the platform (for `npm start`'s embedded
 * database: mongodb://127.0.0.1:27018/).
 */
const email = process.argv[2];
if (!email) {
  console.error('usage: node dist/src/dev/outbox.js <email>');
  process.exit(2);
}
const config = loadConfigOrExit();
if (!config.mongo.url) {
  console.error(`MONGODB_URL is not set; for npm start's embedded database use MONGODB_URL=mongodb://127.0.0.1:${config.localdb.port}/`);
  process.exit(2);
}
const { platform, close } = await openPlatformOrExit(config, 'outbox');
try {
  const messages = await readOutbox(platform, email);
  if (messages.length === 0) console.log(`no messages to ${email}`);
  for (const m of messages)
    console.log(`--- ${m.created_at} ${m.kind} (${m.status})\nSubject: ${m.subject}\n\n${m.text ?? '(body forgotten after delivery through the relay)'}\n`);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await close();
}
