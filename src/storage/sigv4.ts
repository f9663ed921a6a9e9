import { createHmac } from 'node:crypto';
import { sha256 } from '../digest.js';

/**
 * AWS Signature Version 4 for S3 (header and query-string forms), composed from node:crypto's
 * SHA-256 and HMAC-SHA256: canonical request → string to sign → signature with the derived
 * key. Checked against the examples in the S3 API reference (test/platform/storage.test.ts).
 */
export type Credentials = { accessKeyId: string; secretAccessKey: string; region: string; service?: string };

export const EMPTY_PAYLOAD_SHA256 = sha256('');
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
const ALGORITHM = 'AWS4-HMAC-SHA256';

/** `20130524T000000Z` */
export function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** RFC 3986 encoding as SigV4 wants it: unreserved characters stay, everything else is %XX (upper case). */
export function uriEncode(value: string, keepSlash = false): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export type SignableRequest = {
  method: string;
  /** The path as it goes on the wire, already URI-encoded (S3 does not encode it twice). */
  path: string;
  query?: Record<string, string>;
  /** Headers to sign; `host` must be among them. */
  headers: Record<string, string>;
  payloadHash: string;
};

export function canonicalQuery(query: Record<string, string>): string {
  return Object.entries(query)
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

export function canonicalRequest(req: SignableRequest): { canonical: string; signedHeaders: string } {
  const headers = Object.entries(req.headers)
    .map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const signedHeaders = headers.map(([k]) => k).join(';');
  const canonical = [
    req.method.toUpperCase(),
    req.path,
    canonicalQuery(req.query ?? {}),
    headers.map(([k, v]) => `${k}:${v}\n`).join(''),
    signedHeaders,
    req.payloadHash,
  ].join('\n');
  return { canonical, signedHeaders };
}

function scopeOf(creds: Credentials, date: Date): string {
  return `${amzDate(date).slice(0, 8)}/${creds.region}/${creds.service ?? 's3'}/aws4_request`;
}

function signature(creds: Credentials, date: Date, canonical: string): string {
  const stringToSign = [ALGORITHM, amzDate(date), scopeOf(creds, date), sha256(canonical)].join('\n');
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  const dateKey = hmac(`AWS4${creds.secretAccessKey}`, amzDate(date).slice(0, 8));
  const signingKey = hmac(hmac(hmac(dateKey, creds.region), creds.service ?? 's3'), 'aws4_request');
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex');
}

/**
 * The Authorization header for a request whose headers already include `host`,
 * `x-amz-date` and `x-amz-content-sha256` (and anything else to sign).
 */
export function authorizationHeader(creds: Credentials, date: Date, req: SignableRequest): string {
  const { canonical, signedHeaders } = canonicalRequest(req);
  return `${ALGORITHM} Credential=${creds.accessKeyId}/${scopeOf(creds, date)},SignedHeaders=${signedHeaders},Signature=${signature(creds, date, canonical)}`;
}

/** Query-string parameters that presign a request (only `host` signed, payload unsigned). */
export function presignedQuery(
  creds: Credentials,
  date: Date,
  req: { method: string; path: string; host: string; expiresInSeconds: number },
): Record<string, string> {
  const query: Record<string, string> = {
    'X-Amz-Algorithm': ALGORITHM,
    'X-Amz-Credential': `${creds.accessKeyId}/${scopeOf(creds, date)}`,
    'X-Amz-Date': amzDate(date),
    'X-Amz-Expires': String(req.expiresInSeconds),
    'X-Amz-SignedHeaders': 'host',
  };
  const { canonical } = canonicalRequest({ method: req.method, path: req.path, query, headers: { host: req.host }, payloadHash: UNSIGNED_PAYLOAD });
  return { ...query, 'X-Amz-Signature': signature(creds, date, canonical) };
}
