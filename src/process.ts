import type { Config } from './config.js';
import { DatabaseUnavailableError } from './db.js';
import { openPlatform, type OpenPlatform } from './boot.js';

/**
 * Open the platform for a process entry, or exit 1 with one clear line when the database
 * cannot be reached (rather than a stack trace, or Agenda's unhandled rejection later).
 */
export async function openPlatformOrExit(config: Config, processName: string): Promise<OpenPlatform> {
  try {
    return await openPlatform(config, processName);
  } catch (err) {
    if (err instanceof DatabaseUnavailableError || (err as Error).message.startsWith('MONGODB_URL')) {
      console.error(`emporium ${processName}: ${(err as Error).message}`);
      process.exit(1);
    }
    throw err;
  }
}

/** Run `stop` once on the first SIGTERM or SIGINT, then exit with its code. */
export function onShutdownSignal(stop: (signal: NodeJS.Signals) => Promise<number>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    stop(signal).then(
      (code) => process.exit(code),
      (err) => {
        console.error(`shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
