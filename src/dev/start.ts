import { concurrently } from 'concurrently';
import { loadConfigOrExit } from '../config.js';
import { ROOT, buildLocaldb, startLocaldb, type RunningLocaldb } from '../localdb/index.js';
import { chooseLogFormat } from '../log.js';
import { readProcfile } from './procfile.js';

/**
 * `npm start`: the whole platform on one machine. Starts the embedded database unless
 * MONGODB_URL is set, then every Procfile process with prefixed output (concurrently).
 * SIGINT/SIGTERM reach every process; if one dies, all stop; the database stops last.
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
const { result } = concurrently(
  // `exec` so each process is the shell's replacement, not its child: signals reach it directly.
  processes.map(({ name, command }) => ({ name, command: `exec ${command}`, env: { MONGODB_URL: mongoUrl, LOG_FORMAT: logFormat } })),
  { prefix: 'name', killOthersOn: ['failure', 'success'], cwd: ROOT, handleInput: false },
);

let code = 0;
try {
  await result;
} catch {
  // A process failed (concurrently has stopped the others), unless we were asked to stop.
  code = stoppedBySignal ? 0 : 1;
}
if (localdb) await localdb.stop();
process.exit(code);
