import { concurrently, type Command } from 'concurrently';
import { styleText } from 'node:util';
import { loadConfigOrExit } from '../config.js';
import { ROOT, buildLocaldb, startLocaldb, type RunningLocaldb } from '../localdb/index.js';
import { chooseLogFormat } from '../log.js';
import { mailTransport } from '../mail-config.js';
import { readProcfile } from './procfile.js';

/**
 * `npm start`: the whole platform on one machine. Starts the embedded database unless
 * MONGODB_URL is set, then every Procfile process with prefixed output (concurrently).
 * SIGINT/SIGTERM reach every process; if one dies, all stop; the database stops last. Once the
 * web process listens and every worker has started, it prints where things are, once.
 */
const config = loadConfigOrExit();
// The processes write into concurrently's pipes, not to this terminal: they are told the format
// this process would use (pretty in development at a terminal, JSON when piped or told).
const logFormat = chooseLogFormat(config, process.stdout.isTTY === true);
let localdb: RunningLocaldb | null = null;
let mongoUrl = config.mongo.url;
if (!mongoUrl) {
  try {
    buildLocaldb();
    localdb = await startLocaldb({ dataDir: config.localdb.dir, listen: `127.0.0.1:${config.localdb.port}` });
  } catch (err) {
    console.error(`emporium: ${(err as Error).message}`);
    process.exit(1);
  }
  mongoUrl = localdb.url;
  console.error(`localdb: embedded database at ${mongoUrl} (data in ${config.localdb.dir})`);
}

let stoppedBySignal = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (stoppedBySignal = true));

const processes = readProcfile(ROOT);
const { result, commands } = concurrently(
  // `exec` so each process is the shell's replacement, not its child: signals reach it directly.
  processes.map(({ name, command }) => ({ name, command: `exec ${command}`, env: { MONGODB_URL: mongoUrl, LOG_FORMAT: logFormat } })),
  { prefix: 'name', killOthersOn: ['failure', 'success'], cwd: ROOT, handleInput: false },
);
void Promise.all(commands.map(started)).then(() => console.log(readyBanner(mongoUrl!, localdb !== null)));

let code = 0;
try {
  await result;
} catch {
  // A process failed (concurrently has stopped the others), unless we were asked to stop.
  code = stoppedBySignal ? 0 : 1;
}
if (localdb) await localdb.stop();
process.exit(code);

/**
 * Resolves when the process has logged that it is up (`web.listening`, or a worker's
 * `worker.started`), in either log format; never when its LOG_LEVEL hides info lines.
 */
function started(command: Command): Promise<void> {
  const marker = command.name === 'web' ? 'web.listening' : 'worker.started';
  let tail = '';
  return new Promise((resolve) => {
    const subscription = command.stdout.subscribe((chunk) => {
      tail = tail.slice(-marker.length) + chunk.toString();
      if (!tail.includes(marker)) return;
      subscription.unsubscribe();
      resolve();
    });
  });
}

/** Where things are: the web and health URLs, the database (its credentials, if any, masked), and where email goes (docs/mail.md). */
function readyBanner(databaseUrl: string, embedded: boolean): string {
  const web = `http://${config.http.host}:${config.http.port}`;
  const database = databaseUrl.replace(/\/\/[^@/]*@/, '//***@') + (embedded ? ` (embedded; data in ${config.localdb.dir})` : '');
  const title = `Emporium is up (${config.env}, ${processes.length} processes):`;
  const colour = process.stdout.isTTY && process.stdout.hasColors();
  return [
    colour ? styleText(['bold', 'green'], title) : title,
    `  web       ${web}`,
    `  health    ${web}/health`,
    `  database  ${database}`,
    `  mail      ${whereMailGoes()}`,
    'Ctrl-C stops everything.',
  ].join('\n');
}

/** The transport's server without credentials, or the outbox and how to read it. */
function whereMailGoes(): string {
  const transport = mailTransport(config);
  if (transport === 'smtp') return `sent over SMTP to ${config.mail.smtp!.display}`;
  if (transport === 'relay') return `sent through the relay at ${new URL(config.messageRelay!.url).origin}`;
  const port = config.localdb.port === 27018 ? '' : `LOCALDB_PORT=${config.localdb.port} `;
  return `kept in the outbox: ${port}npm run outbox (the latest), npm run outbox -- <address> (in full)`;
}
