import { pino, type DestinationStream, type Logger } from 'pino';

export type Log = Logger;

/**
 * Structured JSON logs with stable event names (`event` field). Credentials are redacted
 * by path as a second line of defence: code never logs them in the first place.
 */
export function createLog(level: string, base: Record<string, unknown>, destination?: DestinationStream): Log {
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
  return destination ? pino(options, destination) : pino(options);
}
