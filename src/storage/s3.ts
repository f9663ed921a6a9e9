import type { Clock } from '../clock.js';
import type { S3Config } from '../config.js';
import { sha256 } from '../digest.js';
import { amzDate, authorizationHeader, canonicalQuery, presignedQuery, uriEncode, EMPTY_PAYLOAD_SHA256 } from './sigv4.js';
import { assertExpiry, assertStorageKey, type ObjectStorage } from './types.js';

const REQUEST_TIMEOUT_MS = 30_000;

export class S3Error extends Error {}

/**
 * An S3-compatible bucket over its REST API: PUT/GET/DELETE object with SigV4 header
 * authentication, presigned GET URLs with query-string SigV4. Virtual-hosted addressing
 * (`<bucket>.<endpoint host>`) unless S3_FORCE_PATH_STYLE (MinIO and most self-hosted servers).
 */
export class S3Storage implements ObjectStorage {
  readonly driver = 's3' as const;
  private readonly origin: URL;

  constructor(
    private readonly config: S3Config,
    private readonly clock: Clock,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.origin = new URL(config.endpoint);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const res = await this.send('PUT', key, { 'content-type': contentType }, bytes);
    await res.arrayBuffer();
    if (!res.ok) throw new S3Error(`S3 PUT ${key} answered ${res.status}`);
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const res = await this.send('GET', key, {});
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status === 404) return null;
    if (!res.ok) throw new S3Error(`S3 GET ${key} answered ${res.status}`);
    return { bytes: body, contentType: res.headers.get('content-type') ?? 'application/octet-stream' };
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key, {});
    await res.arrayBuffer();
    // S3 answers 204 whether or not the key existed; some compatible servers say 404.
    if (!res.ok && res.status !== 404) throw new S3Error(`S3 DELETE ${key} answered ${res.status}`);
  }

  url(key: string, expiresInSeconds: number): string {
    assertStorageKey(key);
    assertExpiry(expiresInSeconds);
    const { host, path, base } = this.address(key);
    const { 'X-Amz-Signature': signature, ...query } = presignedQuery(this.config, this.clock.now(), { method: 'GET', path, host, expiresInSeconds });
    return `${base}${path}?${canonicalQuery(query)}&X-Amz-Signature=${signature}`;
  }

  private address(key: string): { host: string; path: string; base: string } {
    const encodedKey = uriEncode(key, true);
    const prefix = this.origin.pathname.replace(/\/+$/, '');
    if (this.config.forcePathStyle) {
      return { host: this.origin.host, path: `${prefix}/${this.config.bucket}/${encodedKey}`, base: this.origin.origin };
    }
    const host = `${this.config.bucket}.${this.origin.host}`;
    return { host, path: `${prefix}/${encodedKey}`, base: `${this.origin.protocol}//${host}` };
  }

  private async send(method: string, key: string, extra: Record<string, string>, body?: Buffer): Promise<Response> {
    assertStorageKey(key);
    const { host, path, base } = this.address(key);
    const now = this.clock.now();
    const headers: Record<string, string> = {
      host,
      'x-amz-date': amzDate(now),
      'x-amz-content-sha256': body ? sha256(body) : EMPTY_PAYLOAD_SHA256,
      ...extra,
    };
    const authorization = authorizationHeader(this.config, now, { method, path, headers, payloadHash: headers['x-amz-content-sha256']! });
    const { host: _host, ...sent } = headers; // fetch sets Host itself, to the same value
    return this.fetchImpl(`${base}${path}`, {
      method,
      headers: { ...sent, authorization },
      ...(body ? { body } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  }
}
