import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { equalBytes } from '../secrets/index.js';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { Clock } from '../clock.js';
import type { SecretsKey } from '../secrets/index.js';
import { assertExpiry, assertStorageKey, isStorageKey, type ObjectStorage } from './types.js';

const URL_PURPOSE = 'emporium:storage.local-url';

export type SignedUrlCheck = { ok: true; remainingSeconds: number } | { ok: false; reason: 'bad_signature' | 'expired' };

/**
 * Files under one folder: `objects/<key>` holds the bytes, `meta/<key>.json` the content type.
 * URLs point at the web process (`GET /v1/media/files/:key?expires=&signature=`), signed with
 * HMAC-SHA256 over `<key>.<expires>` under a subkey of SECRETS_KEYS (the first key signs, any
 * configured key verifies, so a rotation does not break URLs already handed out).
 */
export class LocalStorage implements ObjectStorage {
  readonly driver = 'local' as const;
  private readonly root: string;

  constructor(
    dir: string,
    private readonly publicBaseUrl: string,
    private readonly keys: readonly SecretsKey[],
    private readonly clock: Clock,
  ) {
    this.root = resolve(dir);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const object = this.pathOf('objects', key);
    const meta = this.pathOf('meta', `${key}.json`);
    // Bytes first, then the metadata that makes them visible; each written whole and renamed.
    await writeAtomically(object, bytes);
    await writeAtomically(meta, Buffer.from(JSON.stringify({ content_type: contentType, size: bytes.length })));
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    if (!isStorageKey(key)) return null;
    try {
      const meta = JSON.parse(await readFile(this.pathOf('meta', `${key}.json`), 'utf8')) as { content_type: string };
      const bytes = await readFile(this.pathOf('objects', key));
      return { bytes, contentType: meta.content_type };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf('meta', `${key}.json`), { force: true });
    await rm(this.pathOf('objects', key), { force: true });
  }

  url(key: string, expiresInSeconds: number): string {
    assertStorageKey(key);
    assertExpiry(expiresInSeconds);
    const expires = Math.floor(this.clock.now().getTime() / 1000) + expiresInSeconds;
    const signature = sign(this.currentKey(), key, expires).toString('hex');
    return `${this.publicBaseUrl}/v1/media/files/${encodeURIComponent(key)}?expires=${expires}&signature=${signature}`;
  }

  /** Checks a URL's signature first (so a changed `expires` is a bad signature), then its expiry. */
  verify(key: string, expires: string, signature: string): SignedUrlCheck {
    if (!isStorageKey(key) || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: 'bad_signature' };
    const given = Buffer.from(signature, 'hex');
    const valid = this.keys.some((k) => equalBytes(sign(k.key, key, Number(expires)), given));
    if (!valid) return { ok: false, reason: 'bad_signature' };
    const remainingSeconds = Number(expires) - Math.floor(this.clock.now().getTime() / 1000);
    return remainingSeconds > 0 ? { ok: true, remainingSeconds } : { ok: false, reason: 'expired' };
  }

  private currentKey(): Buffer {
    const first = this.keys[0];
    if (!first) throw new Error('no secrets key configured');
    return first.key;
  }

  /** Keys are validated, and the resolved path must stay inside the folder anyway. */
  private pathOf(area: 'objects' | 'meta', name: string): string {
    assertStorageKey(area === 'meta' ? name.replace(/\.json$/, '') : name);
    const base = resolve(this.root, area);
    const path = resolve(base, name);
    if (!path.startsWith(base + sep)) throw new Error('storage key escapes the storage folder');
    return path;
  }
}

function sign(key: Buffer, objectKey: string, expires: number): Buffer {
  const subkey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), URL_PURPOSE, 32));
  return createHmac('sha256', subkey).update(`${objectKey}.${expires}`).digest();
}

async function writeAtomically(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, bytes, { flag: 'wx' });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
