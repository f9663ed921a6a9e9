import { pino, type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { Config } from './config.js';

export type Log = Logger;

/** `json`: one JSON object a line (production, CI, tests, anything that reads the logs); `pretty`: for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/**
 * The format of a process's logs: LOG_FORMAT when set; otherwise pretty only in development with
 * stdout a terminal. Anything that reads stdout (a pipe, a file, a test, a bench script waiting for
 * `"event":"worker.started"`) gets JSON unless it asks otherwise.
 */
export function chooseLogFormat(config: Pick<Config, 'env' | 'logFormat'>, stdoutIsTTY: boolean): LogFormat {
  if (config.logFormat) return config.logFormat;
  return config.env === 'development' && stdoutIsTTY ? 'pretty' : 'json';
}

/**
 * Structured JSON logs with stable event names (`event` field). Credentials are redacted
 * by path as a second line of defence: code never logs them in the first place. `pretty` writes
 * the same records as readable lines (time, level, event, the other fields), coloured when the
 * terminal takes colour; it formats in this thread and writes synchronously like JSON does, so
 * the last lines before an exit are not lost.
 */
export function createLog(level: string, base: Record<string, unknown>, destination?: DestinationStream, format: LogFormat = 'json'): Log {
  const options = {
    level,
    base,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'code',
        '*.code',
        'authorization',
        '*.authorization',
        'headers.authorization',
        'secret',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
  if (format === 'pretty') return pino(options, prettyStream(destination ?? pino.destination({ dest: 1, sync: true })));
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Each JSON line as `[12:00:00.123] INFO: job.finished {"job":…}`. The process name is left out:
 * `npm start` prefixes every line with it.
 */
function prettyStream(out: DestinationStream): DestinationStream {
  const pretty = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    singleLine: true,
    ignore: 'process,event',
    // pino's message key is `msg`; our lines mostly have none.
    messageFormat: (log) => [log.event, log.msg].filter((part) => typeof part === 'string').join(' '),
  });
  return { write: (line: string) => void out.write(pretty(line)) };
}
