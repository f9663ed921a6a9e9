import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A partner's signature check written from spec 6.1 alone (rules 1 and 2), with nothing else
 * of the platform's: HMAC-SHA256, hex, over `<timestamp>.<raw_body>` where the raw body is the
 * bytes as received; the optional `v1=` prefix stripped from the header value; the rest
 * compared with the expected hex in constant time. No comma lists, no other prefixes.
 *
 * The spec leaves two things open that a receiver cannot do without: the timestamp header's
 * name (`X-Platform-Timestamp`, docs/webhooks.md) and the HMAC key's encoding (the secret text
 * as UTF-8). Those are the only inputs taken from our docs.
 */
export const TIMESTAMP_HEADER = 'x-platform-timestamp';
export const SIGNATURE_HEADER = 'x-platform-hmac-sha256';

export function verifyBySpec(secret: string, headers: IncomingHttpHeaders, rawBody: Buffer, header: string = SIGNATURE_HEADER): boolean {
  const timestamp = headers[TIMESTAMP_HEADER];
  const value = headers[header];
  if (typeof timestamp !== 'string' || typeof value !== 'string') return false;
  const given = Buffer.from(value.startsWith('v1=') ? value.slice(3) : value, 'utf8');
  const expected = Buffer.from(
    createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), rawBody]))
      .digest('hex'),
    'utf8',
  );
  return given.length === expected.length && timingSafeEqual(given, expected);
}
